package io.gpuforge.domain.passthrough;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A change to a VM's configuration, written against the version it was based on (Proxmox {@code digest},
 * a hash of libvirt's domain XML): when the VM changed meanwhile the write is refused as
 * {@link BackendException.Kind#CONFLICT} and nothing changes.
 */
public sealed interface ConfigChange {

    /** Cores, memory and name, understood by every backend with {@link Capability#VM_CONFIG}. */
    record Resources(OptionalInt cores, OptionalLong memoryMiB, Optional<String> name) implements ConfigChange {
        public Resources {
            Objects.requireNonNull(cores);
            Objects.requireNonNull(memoryMiB);
            Objects.requireNonNull(name);
        }
    }

    /**
     * Proxmox configuration keys to set (a value) or delete (empty); {@link Capability#VM_CONFIG_SETTINGS}.
     */
    record Settings(Map<String, Optional<String>> keys) implements ConfigChange {
        public Settings {
            keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
        }
    }

    /** A whole new libvirt domain XML for the same domain; {@link Capability#VM_CONFIG_DOCUMENT}. */
    record Document(String xml) implements ConfigChange {
        public Document {
            Objects.requireNonNull(xml);
        }
    }
}
