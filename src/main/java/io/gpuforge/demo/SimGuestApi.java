package io.gpuforge.demo;

import io.gpuforge.demo.SimApi.Answer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated QEMU guest agent endpoints. Like PVE, an agent call first needs the agent configured
 * ({@code agent: 1}), the VM running, and the agent answering, in that order, each with PVE's message.
 * {@code exec} starts a process and answers its pid; {@code exec-status} answers {@code exited: 0} (and no exit
 * code) while it runs, then {@code exited: 1} with {@code exitcode} and the output once, after which the agent
 * forgets the pid. The guest knows {@code nvidia-smi}, {@code true}, {@code false}, {@code echo}, {@code uname}
 * and {@code sleep SECONDS}; anything else cannot be executed.
 */
final class SimGuestApi {

    private static final String NVIDIA_SMI = "0, NVIDIA GeForce RTX 4090, 61, 287.45\n";
    private final SimCluster c;

    SimGuestApi(SimCluster c) {
        this.c = c;
    }

    Answer answer(String call, Map<String, String> p, Map<String, List<String>> multi) {
        SimCluster.Vm vm = c.vms.get(Integer.parseInt(p.get("vmid")));
        if (vm == null || !vm.node.equals(p.get("node"))) {
            return Answer.fail(500, "Configuration file 'nodes/" + p.get("node") + "/qemu-server/" + p.get("vmid")
                    + ".conf' does not exist");
        }
        if (!vm.agentConfigured()) {
            return Answer.fail(500, "No QEMU guest agent configured");
        }
        if (!vm.status.equals("running")) {
            return Answer.fail(500, "VM " + vm.vmid + " is not running");
        }
        if (!vm.agentAnswers) {
            return Answer.fail(500, "QEMU guest agent is not running");
        }
        long now = System.currentTimeMillis();
        Map<Long, SimCluster.Process> procs = c.processes.computeIfAbsent(vm.vmid, k -> new TreeMap<>());
        switch (call) {
            case "POST /nodes/{node}/qemu/{vmid}/agent/ping":
                return Answer.ok(Map.of());
            case "POST /nodes/{node}/qemu/{vmid}/agent/exec": {
                SimCluster.Process proc = run(multi.get("command"), now);
                if (proc == null) {
                    return Answer.fail(500, "Agent error: Failed to execute child process '" + multi.get("command").get(0)
                            + "' (No such file or directory)");
                }
                long pid = c.nextPid++;
                procs.put(pid, proc);
                return Answer.ok(Map.of("pid", pid));
            }
            case "GET /nodes/{node}/qemu/{vmid}/agent/exec-status": {
                long pid = Long.parseLong(p.get("pid"));
                SimCluster.Process proc = procs.get(pid);
                if (proc == null) {
                    return Answer.fail(500, "Agent error: Invalid parameter 'pid'");
                }
                if (!proc.exited(now)) {
                    return Answer.ok(Map.of("exited", 0));
                }
                procs.remove(pid);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("exited", 1);
                m.put("exitcode", proc.exitCode());
                if (!proc.out().isEmpty()) {
                    m.put("out-data", proc.out());
                }
                if (!proc.err().isEmpty()) {
                    m.put("err-data", proc.err());
                }
                return Answer.ok(m);
            }
            default:
                return Answer.fail(501, "Method '" + call + "' not implemented in the simulator");
        }
    }

    private static SimCluster.Process run(List<String> argv, long now) {
        List<String> args = argv.subList(1, argv.size());
        switch (argv.get(0)) {
            case "nvidia-smi":
                return new SimCluster.Process(now, 0, 0, NVIDIA_SMI, "");
            case "true":
                return new SimCluster.Process(now, 0, 0, "", "");
            case "false":
                return new SimCluster.Process(now, 0, 1, "", "");
            case "echo":
                return new SimCluster.Process(now, 0, 0, String.join(" ", args) + "\n", "");
            case "uname":
                return new SimCluster.Process(now, 0, 0, "Linux\n", "");
            case "sleep":
                try {
                    return new SimCluster.Process(now, (long) (Double.parseDouble(args.get(0)) * 1000), 0, "", "");
                } catch (RuntimeException e) {
                    return new SimCluster.Process(now, 0, 1, "", "sleep: invalid time interval\n");
                }
            default:
                return null;
        }
    }
}
