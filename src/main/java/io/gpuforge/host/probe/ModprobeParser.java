package io.gpuforge.host.probe;

import io.gpuforge.domain.host.ModprobeConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Reads modprobe.d and modules-load files the way modprobe does, flagging lines it would not accept. */
public final class ModprobeParser {

    private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9_-]+");
    private static final Pattern VFIO_ID = Pattern.compile("[0-9a-fA-F]{4}:[0-9a-fA-F]{4}(:[0-9a-fA-F]{4}){0,4}");

    private ModprobeParser() {
    }

    /** modprobe treats '-' and '_' in module names alike. */
    static String module(String name) {
        return name.replace('-', '_').toLowerCase(Locale.ROOT);
    }

    static ModprobeConfig parse(Map<String, String> files) {
        List<String> ids = new ArrayList<>();
        Map<String, List<String>> softdeps = new LinkedHashMap<>();
        List<String> blacklist = new ArrayList<>();
        List<String> load = new ArrayList<>();
        List<ModprobeConfig.Problem> problems = new ArrayList<>();
        Map<String, String> kept = new LinkedHashMap<>();
        files.forEach((path, content) -> {
            boolean modprobe = path.startsWith("/etc/modprobe.d/");
            boolean loadList = path.equals("/etc/modules") || path.startsWith("/etc/modules-load.d/");
            if (!modprobe && !loadList) {
                return;
            }
            kept.put(path, content);
            String[] lines = content.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i].strip();
                if (line.isEmpty() || line.startsWith("#") || (loadList && line.startsWith(";"))) {
                    continue;
                }
                if (modprobe && !path.endsWith(".conf")) {
                    problems.add(new ModprobeConfig.Problem(path, i + 1, line,
                            "modprobe ignores files in /etc/modprobe.d that do not end in .conf"));
                    break;
                }
                if (loadList) {
                    String name = line.split("\\s+")[0];
                    if (!MODULE.matcher(name).matches()) {
                        problems.add(new ModprobeConfig.Problem(path, i + 1, line, "not a module name"));
                    } else {
                        load.add(module(name));
                    }
                    continue;
                }
                String[] w = line.split("\\s+");
                switch (w[0]) {
                    case "options":
                        if (w.length < 3) {
                            problems.add(new ModprobeConfig.Problem(path, i + 1, line, "options needs a module and a parameter"));
                        } else if (module(w[1]).equals("vfio_pci")) {
                            for (int k = 2; k < w.length; k++) {
                                if (w[k].startsWith("ids=")) {
                                    for (String id : w[k].substring(4).split(",")) {
                                        if (VFIO_ID.matcher(id).matches()) {
                                            ids.add(id.toLowerCase(Locale.ROOT));
                                        } else {
                                            problems.add(new ModprobeConfig.Problem(path, i + 1, line,
                                                    "'" + id + "' is not a vendor:device id"));
                                        }
                                    }
                                }
                            }
                        }
                        break;
                    case "softdep": {
                        if (w.length < 4 || !(line.contains(" pre:") || line.contains(" post:"))) {
                            problems.add(new ModprobeConfig.Problem(path, i + 1, line,
                                    "softdep needs a module and pre: or post: with modules"));
                            break;
                        }
                        List<String> pre = new ArrayList<>();
                        boolean inPre = false;
                        for (int k = 2; k < w.length; k++) {
                            if (w[k].equals("pre:")) {
                                inPre = true;
                            } else if (w[k].equals("post:")) {
                                inPre = false;
                            } else if (inPre) {
                                pre.add(module(w[k]));
                            }
                        }
                        softdeps.computeIfAbsent(module(w[1]), k -> new ArrayList<>()).addAll(pre);
                        break;
                    }
                    case "blacklist":
                        if (w.length != 2) {
                            problems.add(new ModprobeConfig.Problem(path, i + 1, line, "blacklist takes one module name"));
                        } else if (!MODULE.matcher(w[1]).matches()) {
                            problems.add(new ModprobeConfig.Problem(path, i + 1, line,
                                    "'" + w[1] + "' is not a module name (blacklist has no wildcards)"));
                        } else {
                            blacklist.add(module(w[1]));
                        }
                        break;
                    case "alias":
                    case "install":
                    case "remove":
                        if (w.length < 3) {
                            problems.add(new ModprobeConfig.Problem(path, i + 1, line, w[0] + " needs two arguments"));
                        }
                        break;
                    default:
                        problems.add(new ModprobeConfig.Problem(path, i + 1, line,
                                "modprobe does not know the command '" + w[0] + "'"));
                }
            }
        });
        return new ModprobeConfig(ids, softdeps, blacklist, load, problems, kept);
    }
}
