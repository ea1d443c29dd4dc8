package io.gpuforge.demo;

import io.gpuforge.demo.SimApi.Answer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulated QEMU guest agent endpoints. Like PVE, an agent call first needs the agent configured
 * ({@code agent: 1}), the VM running, and the agent answering, in that order, each with PVE's message.
 * {@code exec} starts a process and answers its pid; {@code exec-status} answers {@code exited: 0} (and no exit
 * code) while it runs, then {@code exited: 1} with {@code exitcode} and the output once, after which the agent
 * forgets the pid. The guest knows {@code nvidia-smi} ({@code -L} lists the cards its {@code hostpciN} mappings
 * give it), {@code lspci}, {@code true}, {@code false}, {@code echo}, {@code uname}
 * and {@code sleep SECONDS}, and the files commands of {@link SimGuestFiles} ({@code mkdir}, {@code cat},
 * {@code cloud-init}); anything else cannot be executed. {@code file-write} stores a file in the guest. A VM started
 * through the API has its agent answer only {@link SimCluster#agentBootMillis} later (its guest boots).
 */
final class SimGuestApi {

    private static final String NVIDIA_SMI = "0, NVIDIA GeForce RTX 4090, 61, 287.45\n";
    private static final Pattern MAPPING = Pattern.compile("mapping=([A-Za-z0-9_-]+)");
    private static final Pattern ID = Pattern.compile("id=([0-9a-f]{4}):([0-9a-f]{4})");
    private static final Map<String, String> MODELS = Map.of("2684", "NVIDIA GeForce RTX 4090",
            "2204", "NVIDIA GeForce RTX 3090", "2230", "NVIDIA RTX A6000");
    private final SimCluster c;

    SimGuestApi(SimCluster c) {
        this.c = c;
    }

    Answer answer(String call, Map<String, String> p, Map<String, List<String>> multi) {
        SimVm vm = c.vms.get(Integer.parseInt(p.get("vmid")));
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
        long now = System.currentTimeMillis();
        if (!vm.agentAnswers || now < vm.agentFromMillis) {
            return Answer.fail(500, "QEMU guest agent is not running");
        }
        Map<Long, SimCluster.Process> procs = c.processes.computeIfAbsent(vm.vmid, k -> new TreeMap<>());
        switch (call) {
            case "POST /nodes/{node}/qemu/{vmid}/agent/ping":
                return Answer.ok(Map.of());
            case "POST /nodes/{node}/qemu/{vmid}/agent/file-write":
                return SimGuestFiles.write(vm, p.get("file"), p.get("content"), p.getOrDefault("encode", "1"));
            case "POST /nodes/{node}/qemu/{vmid}/agent/exec": {
                SimCluster.Process proc = SimGuestFiles.handles(multi.get("command").get(0))
                        ? SimGuestFiles.run(c, vm, multi.get("command"), now) : run(multi.get("command"), now, gpus(vm));
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

    /** The cards the VM's {@code hostpciN} mappings give it, as (vendor:device id, model). */
    private List<String[]> gpus(SimVm vm) {
        List<String[]> out = new ArrayList<>();
        for (Map.Entry<String, String> e : vm.config.entrySet()) {
            if (!e.getKey().startsWith("hostpci")) {
                continue;
            }
            Matcher m = MAPPING.matcher(e.getValue());
            List<String> map = m.find() ? c.mappings.get(m.group(1)) : null;
            Matcher id = map == null ? null : ID.matcher(map.get(0));
            if (id != null && id.find()) {
                out.add(new String[] {id.group(1) + ":" + id.group(2), MODELS.getOrDefault(id.group(2),
                        "NVIDIA GPU " + id.group(2))});
            }
        }
        return out;
    }

    private static SimCluster.Process run(List<String> argv, long now, List<String[]> gpus) {
        List<String> args = argv.subList(1, argv.size());
        switch (argv.get(0)) {
            case "nvidia-smi":
                if (args.contains("-L")) {
                    StringBuilder l = new StringBuilder();
                    for (int i = 0; i < gpus.size(); i++) {
                        l.append("GPU ").append(i).append(": ").append(gpus.get(i)[1]).append(" (UUID: GPU-5e1a")
                                .append(String.format("%04x", i)).append("-0000-4000-8000-00000000dead)\n");
                    }
                    return gpus.isEmpty() ? new SimCluster.Process(now, 0, 6, "", "No devices were found\n")
                            : new SimCluster.Process(now, 0, 0, l.toString(), "");
                }
                return new SimCluster.Process(now, 0, 0, NVIDIA_SMI, "");
            case "lspci": {
                StringBuilder l = new StringBuilder("00:00.0 Host bridge [0600]: Intel Corporation 82G33/G31/P35/P31"
                        + " Express DRAM Controller [8086:29c0]\n");
                for (int i = 0; i < gpus.size(); i++) {
                    l.append(String.format("%02x:00.0 VGA compatible controller [0300]: NVIDIA Corporation ", i + 1))
                            .append(gpus.get(i)[1].replace("NVIDIA ", "")).append(" [").append(gpus.get(i)[0])
                            .append("] (rev a1)\n");
                }
                return new SimCluster.Process(now, 0, 0, l.toString(), "");
            }
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
