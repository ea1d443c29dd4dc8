package io.gpuforge.cli;

import io.gpuforge.domain.PciAddress;
import io.gpuforge.host.ProbeException;
import io.gpuforge.passthrough.Check;
import io.gpuforge.passthrough.Messages;
import io.gpuforge.passthrough.Readiness;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gpuforge check}: the readiness checks of a host, and a device's verdict. */
@Command(name = "check", mixinStandardHelpOptions = true, description = "Run the passthrough readiness checks.")
final class CheckCommand implements Callable<Integer> {

    @Mixin
    HostSource source = new HostSource();

    @Option(names = "--device", paramLabel = "BDF", description = "The GPU to check, e.g. 0000:01:00.0.")
    String device;

    @Mixin
    OverrideOptions overrides = new OverrideOptions();

    @Option(names = "--lang", paramLabel = "en|zh-CN", description = "Language of the messages (default en).")
    String lang = "en";

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;

    CheckCommand(CliServices services) {
        this.services = services;
    }

    @Override
    public Integer call() throws IOException {
        LoadedHost loaded;
        try {
            loaded = source.load(services);
        } catch (ProbeException e) {
            services.output().error("gpuforge check: " + e.getMessage());
            return 1;
        }
        io.gpuforge.domain.HostFacts facts = loaded.facts()
                .orElseGet(() -> io.gpuforge.domain.HostFacts.fromListing(loaded.source(), loaded.pci()));
        Optional<PciAddress> dev;
        try {
            dev = Optional.ofNullable(device).map(PciAddress::parse);
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge check: " + e.getMessage());
            return 2;
        }
        Readiness.Report r = Readiness.evaluate(facts, dev, overrides.overrides());
        Messages en = new Messages(Locale.ENGLISH);
        Messages zh = new Messages(Locale.SIMPLIFIED_CHINESE);
        Messages shown = lang.toLowerCase(Locale.ROOT).startsWith("zh") ? zh : en;
        if (json.enabled()) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("source", loaded.source());
            dev.ifPresent(d -> root.put("device", d.toString()));
            List<Object> checks = new ArrayList<>();
            for (Check c : r.checks()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", c.id());
                m.put("status", c.status().name().toLowerCase(Locale.ROOT));
                m.put("message", en.message(c));
                m.put("message_zh_CN", zh.message(c));
                m.put("fix", en.fix(c).orElse(null));
                m.put("fix_zh_CN", zh.fix(c).orElse(null));
                checks.add(m);
            }
            root.put("checks", checks);
            r.verdict().ifPresent(v -> {
                root.put("verdict", v.kind().json());
                root.put("because", v.because());
            });
            services.output().json(root);
        } else {
            for (Check c : r.checks()) {
                services.output().line(String.format(Locale.ROOT, "%-8s %-26s %s", c.status(), c.id(), shown.message(c)));
                shown.fix(c).ifPresent(fix -> services.output().line("         " + " ".repeat(26) + " → " + fix));
            }
            r.verdict().ifPresent(v -> services.output().line("Verdict for " + device + ": "
                    + shown.format("verdict." + v.kind().json()) + (v.because().isEmpty() ? "" : " (" + String.join(", ",
                    v.because()) + ")")));
        }
        return 0;
    }
}
