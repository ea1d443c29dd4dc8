package io.gpuforge.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The sections of one probe run's output ({@code probe.sh}), before interpretation. */
public final class ProbeStream {

    public final Map<String, String> files = new LinkedHashMap<>();
    public final Set<String> exists = new LinkedHashSet<>();
    public final Map<Integer, List<String>> groups = new LinkedHashMap<>();
    public final Map<String, Map<String, List<String>>> devices = new LinkedHashMap<>();
    public final List<String> links = new ArrayList<>();
    public final Map<String, String> deviceMapperNames = new LinkedHashMap<>();
    public final Map<String, String> commands = new LinkedHashMap<>();
    public String root = "/";
    public int cpus;

    static final int MAX_BYTES = 16 * 1024 * 1024;

    public static ProbeStream parse(String text) throws ProbeException {
        if (text.length() > MAX_BYTES) {
            throw new ProbeException("The probe output is " + text.length() / (1024 * 1024) + " MB, more than any host"
                    + " produces; refusing to read it");
        }
        if (text.indexOf('\0') >= 0) {
            throw new ProbeException("The probe output contains binary data; it is not GPUForge probe output");
        }
        String[] lines = text.split("\n", -1);
        if (lines.length == 0 || !lines[0].strip().equals("@@gpuforge-probe 1")) {
            throw new ProbeException("Not GPUForge probe output (format 1): it starts with '"
                    + shorten(lines.length == 0 ? "" : lines[0]) + "'");
        }
        ProbeStream s = new ProbeStream();
        String section = null;
        String name = null;
        StringBuilder body = new StringBuilder();
        Map<String, List<String>> device = null;
        boolean done = false;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i];
            if (section != null) {
                if (line.equals("@@end")) {
                    s.close(section, name, body.toString());
                    section = null;
                    device = null;
                    body.setLength(0);
                } else if (section.equals("dev")) {
                    int eq = line.indexOf('=');
                    if (eq <= 0) {
                        throw bad(i, line, "expected key=value in the device section of " + name);
                    }
                    device.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>()).add(line.substring(eq + 1));
                } else if (line.startsWith("|")) {
                    body.append(line, 1, line.length()).append('\n');
                } else {
                    throw bad(i, line, "expected a '|' content line or @@end inside " + section + " " + name);
                }
                continue;
            }
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split(" ", 2);
            String arg = parts.length > 1 ? parts[1] : "";
            switch (parts[0]) {
                case "@@meta":
                    for (String kv : arg.split(" ")) {
                        if (kv.startsWith("root=")) {
                            s.root = kv.substring(5);
                        }
                    }
                    break;
                case "@@file":
                case "@@cmd":
                    section = parts[0].substring(2);
                    name = arg;
                    break;
                case "@@links":
                    section = "links";
                    name = "";
                    break;
                case "@@dev":
                    section = "dev";
                    name = arg;
                    device = new LinkedHashMap<>();
                    s.devices.put(arg, device);
                    break;
                case "@@exists":
                    s.exists.add(arg);
                    break;
                case "@@cpus":
                    s.cpus = parseInt(arg, i, line);
                    break;
                case "@@group": {
                    String[] g = arg.split(" ");
                    List<String> members = new ArrayList<>();
                    for (int k = 1; k < g.length; k++) {
                        members.add(g[k]);
                    }
                    s.groups.put(parseInt(g[0], i, line), members);
                    break;
                }
                case "@@dm": {
                    String[] d = arg.split(" ", 2);
                    if (d.length == 2) {
                        s.deviceMapperNames.put(d[0], d[1]);
                    }
                    break;
                }
                case "@@done":
                    done = true;
                    break;
                default:
                    throw bad(i, line, "unknown probe record");
            }
        }
        if (section != null || !done) {
            throw new ProbeException("The probe output is truncated (it stops " + (section == null ? "before the end"
                    : "inside " + section + " " + name) + "); the connection may have dropped");
        }
        return s;
    }

    private void close(String section, String name, String body) {
        switch (section) {
            case "file":
                files.put(name, body);
                break;
            case "cmd":
                commands.put(name, body);
                break;
            case "links":
                for (String l : body.split("\n")) {
                    if (!l.isBlank()) {
                        links.add(l);
                    }
                }
                break;
            default:
                break;
        }
    }

    private static int parseInt(String s, int line, String text) throws ProbeException {
        try {
            return Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            throw bad(line, text, "expected a number");
        }
    }

    private static ProbeException bad(int line, String text, String what) {
        return new ProbeException("Probe output line " + (line + 1) + " is malformed (" + what + "): '"
                + shorten(text) + "'");
    }

    /** A line of an answer as an error quotes it: at most 120 characters. */
    public static String shorten(String s) {
        String t = s.strip();
        return t.length() > 120 ? t.substring(0, 117) + "…" : t;
    }
}
