package io.gpuforge.host.probe;

import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.domain.pci.IommuState;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@link HostSummary} from a Linux file-system tree: {@code /} for this computer, or a directory
 * that mirrors a host's {@code /} (a sysroot). Unreadable or absent files give "unknown", never an error.
 * On non-Linux systems the JVM's own view (os.name, os.version) is used and the IOMMU is unknown.
 */
public final class HostSummaryReader {

    private static final Pattern OS_RELEASE_LINE = Pattern.compile("^([A-Z0-9_]+)=(.*)$");
    private static final Pattern MEMTOTAL = Pattern.compile("^MemTotal:\\s+(\\d+)\\s*kB", Pattern.MULTILINE);
    private static final long MAX_READ = 4L * 1024 * 1024;

    private final Path root;

    public HostSummaryReader(Path root) {
        this.root = root;
    }

    /** Summary of the machine this JVM runs on. */
    public static HostSummary thisComputer() {
        String os = System.getProperty("os.name", "");
        if (os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return new HostSummaryReader(Path.of("/")).read();
        }
        return new HostSummary(localHostname(), Optional.of(os + " " + System.getProperty("os.version", "")),
                Optional.of(System.getProperty("os.version", "")), System.getProperty("os.arch", "unknown"),
                Optional.empty(), Optional.empty(), Runtime.getRuntime().availableProcessors(), Optional.empty(),
                IommuState.UNKNOWN, 0);
    }

    public HostSummary read() {
        Path groups = root.resolve("sys/kernel/iommu_groups");
        IommuState iommu;
        int groupCount = 0;
        if (Files.isDirectory(groups)) {
            groupCount = countNumericEntries(groups);
            iommu = groupCount > 0 ? IommuState.ENABLED : IommuState.DISABLED;
        } else if (Files.isDirectory(root.resolve("sys/kernel"))) {
            // Kernels without IOMMU support at all have no iommu_groups directory.
            iommu = IommuState.DISABLED;
        } else {
            iommu = IommuState.UNKNOWN;
        }
        Optional<String> cpuinfo = text("proc/cpuinfo");
        int cpus = cpuinfo.map(HostSummaryReader::countProcessors).orElse(0);
        return summarize(rel -> text(rel), cpus, iommu, groupCount, HostSummaryReader::localHostname);
    }

    /**
     * Builds a summary from file contents, keyed by path relative to / ("etc/os-release"); shared by the
     * local reader and the probe, so both describe a host the same way.
     */
    static HostSummary summarize(Function<String, Optional<String>> text, int cpus, IommuState iommu, int groupCount,
                                 Supplier<String> fallbackName) {
        String hostname = text.apply("etc/hostname").map(String::strip).filter(s -> !s.isEmpty())
                .or(() -> text.apply("proc/sys/kernel/hostname").map(String::strip).filter(s -> !s.isEmpty()))
                .orElseGet(fallbackName);
        Optional<String> os = text.apply("etc/os-release").or(() -> text.apply("usr/lib/os-release"))
                .flatMap(HostSummaryReader::prettyName);
        Optional<String> kernel = text.apply("proc/sys/kernel/osrelease").map(String::strip).filter(s -> !s.isEmpty())
                .or(() -> text.apply("proc/version").flatMap(HostSummaryReader::kernelFromProcVersion));
        Optional<String> cpuinfo = text.apply("proc/cpuinfo");
        Optional<String> model = cpuinfo.flatMap(c -> firstField(c, "model name", "Model", "Hardware", "cpu model"));
        Optional<String> vendor = cpuinfo.flatMap(c -> firstField(c, "vendor_id", "CPU implementer"))
                .map(HostSummaryReader::vendorName);
        Optional<Long> mem = text.apply("proc/meminfo").flatMap(m -> {
            Matcher x = MEMTOTAL.matcher(m);
            return x.find() ? Optional.of(Long.parseLong(x.group(1)) * 1024) : Optional.empty();
        });
        String arch = text.apply("proc/sys/kernel/arch").map(String::strip).filter(s -> !s.isEmpty())
                .orElseGet(() -> cpuinfo.map(c -> c.contains("vendor_id") ? "x86_64" : "unknown").orElse("unknown"));
        return new HostSummary(hostname, os, kernel, arch, model, vendor, cpus, mem, iommu, groupCount);
    }

    private Optional<String> text(String relative) {
        Path p = root.resolve(relative);
        try {
            if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
                return Optional.empty();
            }
            // procfs files report size 0, so read with a cap instead of trusting the size.
            try (InputStream in = Files.newInputStream(p)) {
                byte[] data = in.readNBytes((int) MAX_READ);
                return Optional.of(new String(data, StandardCharsets.UTF_8));
            }
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }

    static Optional<String> prettyName(String osRelease) {
        String name = null;
        String version = null;
        for (String line : osRelease.split("\\R")) {
            Matcher m = OS_RELEASE_LINE.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            String value = unquote(m.group(2));
            switch (m.group(1)) {
                case "PRETTY_NAME":
                    if (!value.isBlank()) {
                        return Optional.of(value);
                    }
                    break;
                case "NAME":
                    name = value;
                    break;
                case "VERSION":
                    version = value;
                    break;
                default:
                    break;
            }
        }
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(version == null || version.isBlank() ? name : name + " " + version);
    }

    private static String unquote(String v) {
        String s = v.strip();
        if (s.length() >= 2 && (s.charAt(0) == '"' || s.charAt(0) == '\'') && s.charAt(s.length() - 1) == s.charAt(0)) {
            s = s.substring(1, s.length() - 1);
        }
        return s.replace("\\\"", "\"").replace("\\$", "$").replace("\\`", "`").replace("\\\\", "\\");
    }

    static Optional<String> kernelFromProcVersion(String procVersion) {
        String[] parts = procVersion.strip().split("\\s+");
        return parts.length >= 3 && "version".equals(parts[1]) ? Optional.of(parts[2]) : Optional.empty();
    }

    private static Optional<String> firstField(String cpuinfo, String... names) {
        for (String name : names) {
            for (String line : cpuinfo.split("\\R")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equals(name)) {
                    String v = line.substring(colon + 1).strip().replaceAll("\\s{2,}", " ");
                    if (!v.isEmpty()) {
                        return Optional.of(v);
                    }
                }
            }
        }
        return Optional.empty();
    }

    static String vendorName(String raw) {
        switch (raw) {
            case "GenuineIntel":
                return "Intel";
            case "AuthenticAMD":
                return "AMD";
            case "HygonGenuine":
                return "Hygon";
            case "0x41":
                return "ARM";
            default:
                return raw;
        }
    }

    private static int countProcessors(String cpuinfo) {
        int n = 0;
        for (String line : cpuinfo.split("\\R")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals("processor")) {
                n++;
            }
        }
        return n;
    }

    private static int countNumericEntries(Path dir) {
        int n = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (p.getFileName().toString().matches("\\d+")) {
                    n++;
                }
            }
        } catch (IOException | SecurityException e) {
            return 0;
        }
        return n;
    }

    private static String localHostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
