package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.domain.vm.ChangeEvent;
import io.gpuforge.domain.vm.VmRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What changed between two polls of {@code /cluster/resources} and {@code /cluster/tasks}: VMs that appeared,
 * went away (or moved to another node: gone from one, there on the other), changed state or name; nodes that
 * went on- or offline; tasks that started or ended. A burst of more than {@value #BURST} changes in one poll
 * is told as one {@link ChangeEvent.Kind#INVENTORY} event ("reload everything"). Pure.
 */
public final class PveFeedDiff {

    /** More changes than this in one poll are coalesced into one INVENTORY event. */
    public static final int BURST = 20;

    /** A VM as the cluster listing shows it. */
    record Vm(VmRef ref, String name, String status, boolean template) {
    }

    /** A task: running while {@code status} is empty. */
    record Task(String upid, String node, String type, String id, String status) {
    }

    /** One poll's answers, reduced to what the diff compares. */
    public record Snapshot(Map<String, Vm> vms, Map<String, String> nodes, Map<String, Task> tasks) {
        public Snapshot {
            vms = Map.copyOf(vms);
            nodes = Map.copyOf(nodes);
            tasks = Map.copyOf(tasks);
        }

        public static Snapshot of(JsonNode resources, JsonNode tasks) {
            Map<String, Vm> vms = new LinkedHashMap<>();
            Map<String, String> nodes = new LinkedHashMap<>();
            for (JsonNode r : resources) {
                String type = PveValues.text(r, "type").orElse("");
                Optional<String> node = PveValues.text(r, "node");
                if (type.equals("node") && node.isPresent()) {
                    nodes.put(node.get(), PveValues.text(r, "status").orElse("unknown"));
                } else if (type.equals("qemu") && node.isPresent() && PveValues.number(r, "vmid").isPresent()) {
                    String vmid = String.valueOf(PveValues.number(r, "vmid").getAsLong());
                    vms.put(vmid, new Vm(new VmRef(node.get(), vmid), PveValues.text(r, "name").orElse(""),
                            PveValues.text(r, "status").orElse("unknown"), PveValues.bool(r, "template").orElse(false)));
                }
            }
            Map<String, Task> ts = new LinkedHashMap<>();
            for (JsonNode t : tasks) {
                PveValues.text(t, "upid").ifPresent(u -> ts.put(u, new Task(u, PveValues.text(t, "node").orElse(""),
                        PveValues.text(t, "type").orElse(""), PveValues.text(t, "id").orElse(""),
                        PveValues.text(t, "status").orElse(""))));
            }
            return new Snapshot(vms, nodes, ts);
        }
    }

    private PveFeedDiff() {
    }

    public static List<ChangeEvent> diff(Snapshot before, Snapshot after) {
        List<ChangeEvent> out = new ArrayList<>();
        after.vms().forEach((vmid, now) -> {
            Vm was = before.vms().get(vmid);
            if (was == null) {
                out.add(ChangeEvent.ofVm(ChangeEvent.Kind.VM_ADDED, now.ref(), "VM " + vmid + " " + now.name() + " appeared"));
            } else if (!was.ref().equals(now.ref())) {
                out.add(ChangeEvent.ofVm(ChangeEvent.Kind.VM_REMOVED, was.ref(), "VM " + vmid + " left " + was.ref().node()));
                out.add(ChangeEvent.ofVm(ChangeEvent.Kind.VM_ADDED, now.ref(), "VM " + vmid + " is now on " + now.ref().node()));
            } else if (!was.status().equals(now.status())) {
                out.add(ChangeEvent.ofVm(ChangeEvent.Kind.VM_STATE, now.ref(), "VM " + vmid + " " + was.status() + " → "
                        + now.status()));
            } else if (!was.name().equals(now.name()) || was.template() != now.template()) {
                out.add(ChangeEvent.ofVm(ChangeEvent.Kind.VM_CONFIG, now.ref(), "VM " + vmid + " " + now.name()
                        + (now.template() ? " (template)" : "")));
            }
        });
        before.vms().forEach((vmid, was) -> {
            if (!after.vms().containsKey(vmid)) {
                out.add(ChangeEvent.ofVm(ChangeEvent.Kind.VM_REMOVED, was.ref(), "VM " + vmid + " " + was.name() + " is gone"));
            }
        });
        after.nodes().forEach((node, status) -> {
            if (!Objects.equals(before.nodes().get(node), status)) {
                out.add(new ChangeEvent(ChangeEvent.Kind.NODE_STATE, Optional.of(node), Optional.empty(), node + " is " + status));
            }
        });
        before.nodes().keySet().stream().filter(n -> !after.nodes().containsKey(n)).forEach(n -> out.add(new ChangeEvent(
                ChangeEvent.Kind.NODE_STATE, Optional.of(n), Optional.empty(), n + " left the cluster")));
        after.tasks().forEach((upid, now) -> {
            Task was = before.tasks().get(upid);
            if (was == null || !was.status().equals(now.status())) {
                String what = now.type() + (now.id().isEmpty() ? "" : " " + now.id());
                String detail = now.status().isEmpty() ? what + " started" : what + ": " + now.status();
                out.add(new ChangeEvent(ChangeEvent.Kind.TASK, Optional.of(now.node()), vmOf(now, after), detail));
            }
        });
        if (out.size() > BURST) {
            return List.of(ChangeEvent.of(ChangeEvent.Kind.INVENTORY, out.size() + " changes at once"));
        }
        return out;
    }

    /** The VM a {@code qm…} task works on, where the listing knows it. */
    private static Optional<VmRef> vmOf(Task t, Snapshot s) {
        if (!t.type().startsWith("qm") || !t.id().matches("\\d+")) {
            return Optional.empty();
        }
        Vm vm = s.vms().get(t.id());
        return Optional.of(vm != null ? vm.ref() : new VmRef(t.node(), t.id()));
    }
}
