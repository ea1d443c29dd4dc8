package io.gpuforge.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a user changes in a simulated cluster, as JSON: its VMs and containers (configuration, pending changes, power
 * state, the guests' files), PCI resource mappings, storages' files, finished tasks with their logs and the kernel
 * lines of failed starts. The nodes, their hardware and the failures they are built with are the cluster's own and
 * not kept. Read back by {@link #overlay} into the objects a cluster already holds, so that a task running meanwhile
 * still changes the VM the cluster lists.
 */
final class SimState {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    record Vm(int vmid, String node, boolean template, String status, Map<String, String> config,
              Map<String, String> pending, boolean agentAnswers, Map<String, byte[]> files, Set<String> dirs,
              List<String> cloudInitRuns, int cloudInitDrives, Map<String, byte[]> written, Map<String, String> modes) {
    }

    record Ct(int vmid, String node, String status, Map<String, String> config, List<List<String>> lxc) {
    }

    record Task(String upid, String node, String type, String id, long startMillis, long durationMillis,
                List<String> log, String exitStatus, long endMillis) {
    }

    record Kernel(String node, long millis, String text) {
    }

    record Cluster(List<Vm> vms, List<Ct> containers, Map<String, List<String>> mappings,
                   Map<String, List<SimCluster.Volume>> files, List<Task> tasks, List<Kernel> kernel, long nextPid) {
    }

    private SimState() {
    }

    /** The cluster's state as JSON; the caller holds the cluster's lock. */
    static String write(SimCluster c) {
        List<Vm> vms = new ArrayList<>();
        c.vms.values().forEach(v -> vms.add(new Vm(v.vmid, v.node, v.template, v.status, v.config, v.pending,
                v.agentAnswers, v.files, v.dirs, v.cloudInitRuns, v.cloudInitDrives, v.written, v.modes)));
        List<Ct> cts = new ArrayList<>();
        c.containers.byId.values().forEach(t -> cts.add(new Ct(t.vmid, t.node, t.status, t.config, t.lxc)));
        List<Task> tasks = new ArrayList<>();
        // a task still running has its effect in this process only: it is kept once it has ended
        c.tasks.values().stream().filter(t -> t.exitStatus != null).forEach(t -> tasks.add(new Task(t.upid, t.node,
                t.type, t.id, t.startMillis, t.durationMillis, t.log, t.exitStatus, t.endMillis)));
        List<Kernel> kernel = c.kernelLines.stream().map(k -> new Kernel(k.node(), k.millis(), k.text())).toList();
        try {
            return JSON.writeValueAsString(new Cluster(vms, cts, c.mappings, c.files, tasks, kernel, c.nextPid));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the simulated cluster's state cannot be written: " + e.getMessage(), e);
        }
    }

    /**
     * Makes the cluster hold what {@code json} says: its VMs and containers updated in place (new ones added, gone
     * ones removed), mappings, files, finished tasks and kernel lines replaced; tasks still running here are kept.
     *
     * @throws IllegalArgumentException when {@code json} is not such a state
     */
    static void overlay(SimCluster c, String json) {
        Cluster s;
        try {
            s = JSON.readValue(json, Cluster.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a simulated cluster's state: " + e.getOriginalMessage(), e);
        }
        Map<Integer, SimVm> vms = new TreeMap<>();
        for (Vm v : s.vms()) {
            SimVm vm = c.vms.get(v.vmid());
            if (vm == null) {
                vm = new SimVm(v.vmid(), v.node());
            }
            vm.node = v.node();
            vm.template = v.template();
            vm.status = v.status();
            replace(vm.config, v.config());
            replace(vm.pending, v.pending());
            vm.agentAnswers = v.agentAnswers();
            replace(vm.files, v.files());
            vm.dirs.clear();
            vm.dirs.addAll(v.dirs());
            vm.cloudInitRuns.clear();
            vm.cloudInitRuns.addAll(v.cloudInitRuns());
            vm.cloudInitDrives = v.cloudInitDrives();
            replace(vm.written, v.written());
            replace(vm.modes, v.modes());
            vms.put(v.vmid(), vm);
        }
        c.vms.clear();
        c.vms.putAll(vms);
        Map<Integer, SimContainers.Ct> cts = new TreeMap<>();
        for (Ct t : s.containers()) {
            SimContainers.Ct ct = c.containers.byId.get(t.vmid());
            if (ct == null || !ct.node.equals(t.node())) {
                ct = new SimContainers.Ct(t.vmid(), t.node());
            }
            ct.status = t.status();
            replace(ct.config, t.config());
            ct.lxc.clear();
            for (List<String> l : t.lxc()) {
                ct.lxc.add(List.copyOf(l));
            }
            cts.put(t.vmid(), ct);
        }
        c.containers.byId.clear();
        c.containers.byId.putAll(cts);
        replace(c.mappings, s.mappings());
        replace(c.files, s.files());
        Map<String, SimTask> tasks = new LinkedHashMap<>();
        for (Task t : s.tasks()) {
            SimTask task = new SimTask(t.upid(), t.node(), t.type(), t.id(), t.startMillis(), t.durationMillis(), () -> { });
            task.log.clear();
            task.log.addAll(t.log());
            task.exitStatus = t.exitStatus();
            task.endMillis = t.endMillis();
            tasks.put(t.upid(), task);
        }
        for (Iterator<SimTask> i = c.tasks.values().iterator(); i.hasNext();) {
            SimTask t = i.next();
            if (t.exitStatus == null) {
                tasks.putIfAbsent(t.upid, t);
            }
        }
        c.tasks.clear();
        c.tasks.putAll(tasks);
        c.kernelLines.clear();
        s.kernel().forEach(k -> c.kernelLines.add(new SimCluster.KernelLine(k.node(), k.millis(), k.text())));
        c.nextPid = Math.max(c.nextPid, s.nextPid());
    }

    private static <K, V> void replace(Map<K, V> target, Map<K, V> values) {
        target.clear();
        if (values != null) {
            target.putAll(values);
        }
    }
}
