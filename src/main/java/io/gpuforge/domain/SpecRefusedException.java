package io.gpuforge.domain;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import io.gpuforge.domain.vm.VmField;

/**
 * The hypervisor refused a VM to create because of some of its values (Proxmox VE's 400 with an {@code errors}
 * map): each problem with the field it belongs to, so the wizard shows it there. Kind {@link Kind#INVALID}.
 */
public final class SpecRefusedException extends BackendException {

    private static final long serialVersionUID = 1L;
    private final transient Map<VmField, String> fields;

    public SpecRefusedException(Map<VmField, String> fields, Throwable cause) {
        super(Kind.INVALID, "The VM was refused: " + fields.entrySet().stream().map(e -> e.getKey().name()
                .toLowerCase(Locale.ROOT).replace('_', ' ') + ": " + e.getValue())
                .collect(Collectors.joining("; ")), cause);
        this.fields = Collections.unmodifiableMap(fields.isEmpty() ? new EnumMap<>(VmField.class) : new EnumMap<>(fields));
    }

    public Map<VmField, String> fields() {
        return fields;
    }
}
