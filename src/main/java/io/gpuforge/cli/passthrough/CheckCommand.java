package io.gpuforge.cli.passthrough;

import io.gpuforge.app.passthrough.CheckMessages;
import io.gpuforge.app.host.HostReading;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.passthrough.Verdict;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.cli.common.ListingInput;
import io.gpuforge.cli.common.LoadedHost;

/**
 * {@code gpuforge check}: the readiness checks of a host, with a device's verdict, or without
 * {@code --device} the verdict of every GPU and the checks behind it. JSON:
 * {@code {source, [device], checks, [verdict, because], host:[checks], gpus:[{address, name, verdict,
 * because, checks:[ids not pass]}]}} plus, as for {@code iommu}, what a listing skipped and where it is partial.
 */
@Command(name = "check", mixinStandardHelpOptions = true, description = "Run the passthrough readiness checks.")
public final class CheckCommand extends CliCommand {
    private static final String ROW = "%-8s %-26s %s";

    @Mixin
    HostSource source = new HostSource();

    @Option(names = "--device", paramLabel = "BDF", description = "The GPU to check, e.g. 0000:01:00.0 (default: every GPU).")
    String device;

    @Mixin
    OverrideOptions overrides = new OverrideOptions();

    @Option(names = "--lang", paramLabel = "en|zh-CN", description = "Language of the messages (default en).")
    String lang = "en";

    @Option(names = "--verbose", description = "With --listing: also show the lines skipped as not part of the listing.")
    boolean verbose;

    private final CheckMessages en = new CheckMessages(Locale.ENGLISH);
    private final CheckMessages zh = new CheckMessages(Locale.SIMPLIFIED_CHINESE);

    CheckCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        HostReading reading;
        try {
            reading = source.read(services);
        } catch (HostException e) {
            services.output().error("gpuforge check: " + e.getMessage());
            return 1;
        }
        LoadedHost loaded = LoadedHost.of(reading);
        Optional<PciAddress> dev;
        try {
            dev = Optional.ofNullable(device).map(PciAddress::parse);
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge check: " + e.getMessage());
            return 2;
        }
        PassthroughService passthrough = source.passthrough(services);
        ReadinessReport r = passthrough.check(reading, dev, overrides.overrides());
        List<Check> host = passthrough.check(reading, Optional.empty(), overrides.overrides()).checks();
        List<GpuVerdict> gpus = passthrough.verdicts(reading, overrides.overrides());
        if (json.enabled()) {
            services.output().json(json(loaded, dev, r, host, gpus));
        } else {
            text(loaded, r, gpus, dev.isEmpty());
        }
        return 0;
    }

    private Map<String, Object> json(LoadedHost loaded, Optional<PciAddress> dev, ReadinessReport r, List<Check> host,
                                     List<GpuVerdict> gpus) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("source", loaded.source());
        dev.ifPresent(d -> root.put("device", d.toString()));
        root.put("checks", r.checks().stream().map(this::check).toList());
        r.verdict().ifPresent(v -> {
            root.put("verdict", v.kind().json());
            root.put("because", v.because());
        });
        root.put("host", host.stream().map(this::check).toList());
        List<Object> list = new ArrayList<>();
        for (GpuVerdict g : gpus) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("address", g.address().toString());
            m.put("name", g.name().orElse(null));
            m.put("verdict", g.verdict().kind().json());
            m.put("because", g.verdict().because());
            m.put("checks", g.behindIds());
            list.add(m);
        }
        root.put("gpus", list);
        ListingInput.json(root, loaded, verbose);
        return root;
    }

    private Map<String, Object> check(Check c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id());
        m.put("status", c.status().name().toLowerCase(Locale.ROOT));
        m.put("message", en.message(c));
        m.put("message_zh_CN", zh.message(c));
        m.put("fix", en.fix(c).orElse(null));
        m.put("fix_zh_CN", zh.fix(c).orElse(null));
        return m;
    }

    private void text(LoadedHost loaded, ReadinessReport r, List<GpuVerdict> gpus, boolean everyGpu) {
        CheckMessages shown = lang.toLowerCase(Locale.ROOT).startsWith("zh") ? zh : en;
        CliOutput o = services.output();
        ListingInput.notes(loaded, verbose).forEach(o::line);
        for (Check c : r.checks()) {
            row(o, "", c, shown);
        }
        r.verdict().ifPresent(v -> o.line("Verdict for " + device + ": " + verdict(v, shown)));
        if (!everyGpu) {
            return;
        }
        if (gpus.isEmpty()) {
            o.line("");
            o.line("No GPU (display-class PCI function) in " + loaded.source() + ".");
        }
        for (GpuVerdict g : gpus) {
            o.line("");
            o.line("GPU " + g.address() + g.name().map(n -> "  " + n).orElse(""));
            o.line("  Verdict: " + verdict(g.verdict(), shown));
            g.behind().forEach(c -> row(o, "  ", c, shown));
        }
    }

    private static void row(CliOutput o, String indent, Check c, CheckMessages shown) {
        o.line(indent + String.format(Locale.ROOT, ROW, c.status(), c.id(), shown.message(c)));
        shown.fix(c).ifPresent(fix -> o.line(indent + "         " + " ".repeat(26) + " → " + fix));
    }

    private static String verdict(Verdict v, CheckMessages shown) {
        return shown.format("verdict." + v.kind().json())
                + (v.because().isEmpty() ? "" : " (" + String.join(", ", v.because()) + ")");
    }
}
