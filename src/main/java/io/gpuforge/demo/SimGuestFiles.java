package io.gpuforge.demo;

import io.gpuforge.demo.SimApi.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A simulated guest's files, as its QEMU guest agent sees them: {@code agent/file-write} stores a file (base64 with
 * {@code encode=0}, else the text as it came, as PVE encodes it for QEMU) into a directory that must exist, like
 * {@code guest-file-open} does; the guest runs {@code mkdir [-p] [-m MODE] DIR}, {@code chmod MODE DIR},
 * {@code rm [-f] FILE}, {@code cat FILE}, {@code cloud-init status [--wait]} (done) and
 * {@code cloud-init [--file FILE] single --name MODULE [--frequency F]}, which records the module as run (exit 0)
 * unless a test made it fail ({@link SimCluster#failCloudInitModule}).
 */
final class SimGuestFiles {

    /** PVE's {@code content} limit ({@code maxLength} of the schema). */
    private static final int MAX_CONTENT = 61440;
    /** What a simulated guest's disk holds of written files: past it, a write fails as on a full disk. */
    static final long MAX_GUEST_BYTES = 4L << 20;
    private static final String CLOUD_INIT = "Cloud-init v. 24.4.1-0ubuntu0~24.04.1";
    private static final long MODULE_MILLIS = 150;

    private SimGuestFiles() {
    }

    static boolean handles(String program) {
        return List.of("mkdir", "chmod", "rm", "cat", "cloud-init").contains(program);
    }

    static Answer write(SimVm vm, String file, String content, String encode) {
        if (content.length() > MAX_CONTENT) {
            return Answer.invalid(Map.of("content", "value may only be " + MAX_CONTENT + " characters long"));
        }
        byte[] bytes;
        if (List.of("0", "false", "no", "off").contains(encode)) {
            try {
                bytes = Base64.getDecoder().decode(content);
            } catch (IllegalArgumentException e) {
                return Answer.fail(500, "Agent error: Guest agent command failed, error was 'Invalid parameter type"
                        + " for 'buf-b64', expected: base64'");
            }
        } else {
            bytes = content.getBytes(StandardCharsets.UTF_8);
        }
        if (!file.startsWith("/") || !vm.dirs.contains(parent(file))) {
            return Answer.fail(500, "Agent error: failed to open file '" + file + "': No such file or directory");
        }
        long held = vm.files.entrySet().stream().filter(e -> !e.getKey().equals(file))
                .mapToLong(e -> e.getValue().length).sum();
        if (held + bytes.length > MAX_GUEST_BYTES) {
            return Answer.fail(500, "Agent error: Guest agent command failed, error was 'failed to write to file '"
                    + file + "': No space left on device'");
        }
        vm.files.put(file, bytes);
        vm.written.put(file, bytes.clone());
        return Answer.ok(null);
    }

    static SimCluster.Process run(SimCluster c, SimVm vm, List<String> argv, long now) {
        List<String> args = argv.subList(1, argv.size());
        switch (argv.get(0)) {
            case "mkdir":
                return mkdir(vm, args, now);
            case "chmod":
                return chmod(vm, args, now);
            case "rm":
                return rm(vm, args, now);
            case "cat": {
                StringBuilder out = new StringBuilder();
                for (String f : args) {
                    byte[] b = vm.files.get(f);
                    if (b == null) {
                        return new SimCluster.Process(now, 0, 1, out.toString(), "cat: " + f
                                + ": No such file or directory\n");
                    }
                    out.append(new String(b, StandardCharsets.UTF_8));
                }
                return new SimCluster.Process(now, 0, 0, out.toString(), "");
            }
            default:
                return cloudInit(c, vm, args, now);
        }
    }

    private static SimCluster.Process chmod(SimVm vm, List<String> args, long now) {
        if (args.size() != 2 || !args.get(0).matches("0?[0-7]{3}")) {
            return new SimCluster.Process(now, 0, 1, "", "chmod: the simulated guest takes 'chmod MODE PATH' only\n");
        }
        String path = args.get(1).replaceAll("/+$", "");
        if (!vm.dirs.contains(path) && !vm.files.containsKey(path)) {
            return new SimCluster.Process(now, 0, 1, "", "chmod: cannot access '" + args.get(1)
                    + "': No such file or directory\n");
        }
        vm.modes.put(path, args.get(0).length() == 3 ? "0" + args.get(0) : args.get(0));
        return new SimCluster.Process(now, 0, 0, "", "");
    }

    private static SimCluster.Process rm(SimVm vm, List<String> args, long now) {
        boolean force = false;
        for (String a : args) {
            if (a.equals("-f")) {
                force = true;
            } else if (vm.files.remove(a) == null && !force) {
                return new SimCluster.Process(now, 0, 1, "", "rm: cannot remove '" + a + "': No such file or directory\n");
            }
        }
        return new SimCluster.Process(now, 0, 0, "", "");
    }

    private static SimCluster.Process mkdir(SimVm vm, List<String> args, long now) {
        boolean parents = false;
        String mode = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-p")) {
                parents = true;
            } else if (a.equals("-m") && i + 1 < args.size()) {
                mode = args.get(++i);
            } else if (!a.startsWith("/")) {
                return new SimCluster.Process(now, 0, 1, "", "mkdir: cannot create directory '" + a
                        + "': the simulated guest knows absolute paths only\n");
            } else {
                String dir = a.replaceAll("/+$", "");
                if (!parents && !vm.dirs.contains(parent(dir))) {
                    return new SimCluster.Process(now, 0, 1, "", "mkdir: cannot create directory '" + a
                            + "': No such file or directory\n");
                }
                boolean existed = vm.dirs.contains(dir);
                for (String d = dir; !d.isEmpty(); d = d.substring(0, d.lastIndexOf('/'))) {
                    vm.dirs.add(d);
                }
                if (mode != null && !existed) { // as mkdir(1): -m applies to a directory it makes, not to one there
                    vm.modes.put(dir, mode);
                }
            }
        }
        return new SimCluster.Process(now, 0, 0, "", "");
    }

    private static SimCluster.Process cloudInit(SimCluster c, SimVm vm, List<String> args, long now) {
        if (!args.isEmpty() && args.get(0).equals("status")) { // the first boot's own run is over once the agent runs
            return new SimCluster.Process(now, args.contains("--wait") ? MODULE_MILLIS : 0, 0, "status: done\n", "");
        }
        String file = null;
        String module = null;
        boolean single = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals("--file") || a.equals("-f")) && i + 1 < args.size()) {
                file = args.get(++i);
            } else if ((a.equals("--name") || a.equals("-n")) && i + 1 < args.size()) {
                module = args.get(++i);
            } else if (a.equals("single")) {
                single = true;
            }
        }
        if (!single || module == null) {
            return new SimCluster.Process(now, 0, 2, "", "usage: /usr/bin/cloud-init single [-h] --name NAME\n"
                    + "/usr/bin/cloud-init single: error: the simulated guest runs 'single --name MODULE' only\n");
        }
        if (file != null && !vm.files.containsKey(file)) {
            return new SimCluster.Process(now, 0, 1, "", "Traceback (most recent call last):\nFileNotFoundError:"
                    + " [Errno 2] No such file or directory: '" + file + "'\n");
        }
        vm.cloudInitRuns.add(module);
        String banner = CLOUD_INIT + " running 'single' at " + Instant.ofEpochMilli(now) + ". Up 42.17 seconds.\n";
        String failure = c.failingModules.get(module);
        if (failure != null) {
            return new SimCluster.Process(now, MODULE_MILLIS, 1, banner, failure + "\n" + "Running module " + module
                    + " failed\n");
        }
        return new SimCluster.Process(now, MODULE_MILLIS, 0, banner, "");
    }

    private static String parent(String path) {
        int i = path.lastIndexOf('/');
        return i <= 0 ? "/" : path.substring(0, i);
    }
}
