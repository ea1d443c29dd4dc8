package io.gpuforge.cli.passthrough;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.passthrough.VerifyItem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;

/** {@code gpuforge verify}: after the reboot, compares the running host with what the last apply intended. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "After the reboot: kernel arguments, IOMMU groups, vfio-pci binding, vfio errors.")
public final class VerifyCommand extends CliCommand {
    @Mixin
    PassthroughHost where = new PassthroughHost();

    VerifyCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        PassthroughService.VerifyReport report;
        try (PassthroughHost.Opened h = where.read(services)) {
            report = h.passthrough().verify(h.target(), HostSource::refuseUnknownKey);
        } catch (HostException | BackendException e) {
            services.output().error("gpuforge verify: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge verify: " + e.getMessage());
            return 2;
        }
        List<VerifyItem> items = report.items();
        boolean ok = report.ok();
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("journal", report.journalId());
            m.put("ok", ok);
            List<Object> list = new ArrayList<>();
            for (VerifyItem i : items) {
                list.add(Map.of("id", i.id(), "ok", i.ok(), "detail", EnglishWords.of(i.detail())));
            }
            m.put("items", list);
            services.output().json(m);
        } else {
            for (VerifyItem i : items) {
                services.output().line((i.ok() ? "OK    " : "FAIL  ") + i.id() + ": " + EnglishWords.of(i.detail()));
            }
            services.output().line(ok ? "The host is set up as planned." : "The host is NOT as planned.");
        }
        return ok ? 0 : 1;
    }
}
