package io.gpuforge.app.passthrough;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmRef;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a passthrough of one card to one VM will do, as the user is shown it before the first change: the
 * host's plan (its files and commands, when the host must change), whether the node reboots, the VM's changes exactly
 * as its hypervisor will make them (the mapping, the {@code hostpciN}, the firmware), the GPUs the VM keeps, against
 * the VM's configuration version. A value: its {@link #digest()} names it, and the chain applies this value and
 * nothing else: a host or VM that changed since stops it with nothing written.
 *
 * @param host where the host side is done, as the user reads it
 * @param vmName the VM's name (its id when it has none)
 * @param stage where the host stood when the plan was made
 * @param hostPlan the host's plan; empty when the host needs no change
 * @param reboot whether the node reboots (after the apply, or because it was configured and not rebooted)
 * @param vmChanges the VM's changes, as the hypervisor will write them
 * @param vmVersion the version of the VM's configuration the changes are planned against
 * @param kept the GPUs the VM has and keeps ({@code --add-gpu})
 */
public record PassthroughProposal(String host, PciAddress device, VmRef vm, String vmName,
                                  PassthroughStatus.Stage stage, Optional<PassthroughPlan> hostPlan, boolean reboot,
                                  List<String> vmChanges, String vmVersion, List<String> kept) {

    public PassthroughProposal {
        Objects.requireNonNull(host);
        Objects.requireNonNull(device);
        Objects.requireNonNull(vm);
        Objects.requireNonNull(vmName);
        Objects.requireNonNull(stage);
        Objects.requireNonNull(hostPlan);
        Objects.requireNonNull(vmVersion);
        vmChanges = List.copyOf(vmChanges);
        kept = List.copyOf(kept);
    }

    /** Whether the host's files change (a plan with edits). */
    public boolean changesHost() {
        return hostPlan.map(p -> !p.hostChangesNothing()).orElse(false);
    }

    /**
     * The first 16 hex digits of the SHA-256 of everything this plan does (the plan's id and time left out): two
     * plans with the same digest make the same changes. What {@code gpuforge passthrough --digest} checks.
     */
    public String digest() {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(canonical().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-256", e);
        }
    }

    /** Every fact the digest covers, one per line, each field length-prefixed so no two plans read alike. */
    String canonical() {
        StringBuilder b = new StringBuilder("gpuforge-passthrough-plan/1\n");
        field(b, "host", host);
        field(b, "device", device.toString());
        field(b, "vm", vm.node() + "/" + vm.id());
        field(b, "stage", stage.name());
        field(b, "reboot", String.valueOf(reboot));
        if (hostPlan.isPresent()) {
            PassthroughPlan p = hostPlan.get();
            p.functions().forEach(f -> field(b, "function", f.toString()));
            for (PassthroughPlan.FileEdit e : p.edits()) {
                field(b, "edit", e.path());
                field(b, "before", e.before().orElse("\u0000absent"));
                field(b, "after", e.after());
            }
            p.commands().forEach(c -> field(b, "command", c));
        }
        vmChanges.forEach(c -> field(b, "vm-change", c));
        field(b, "vm-version", vmVersion);
        kept.forEach(k -> field(b, "kept", k));
        return b.toString();
    }

    private static void field(StringBuilder b, String name, String value) {
        b.append(name).append(' ').append(value.length()).append(':').append(value).append('\n');
    }
}
