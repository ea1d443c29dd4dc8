package io.gpuforge.cli;

import io.gpuforge.domain.VerifyItem;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.host.Journal;
import io.gpuforge.host.JournalPolicy;
import io.gpuforge.host.ProbeException;
import io.gpuforge.passthrough.Verifier;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code gpuforge verify}: after the reboot, compares the running host with what the last apply intended. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "After the reboot: kernel arguments, IOMMU groups, vfio-pci binding, vfio errors.")
final class VerifyCommand implements Callable<Integer> {

    @Mixin
    HostSource source = new HostSource();

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;

    VerifyCommand(CliServices services) {
        this.services = services;
    }

    @Override
    public Integer call() throws IOException {
        HostFacts facts;
        try {
            facts = source.load(services).facts().orElseThrow(() -> new ProbeException("verify needs a host, not a listing"));
        } catch (ProbeException e) {
            services.output().error("gpuforge verify: " + e.getMessage());
            return 1;
        }
        String raw = facts.files().get(Journal.PATH);
        if (raw == null) {
            services.output().error("gpuforge verify: no GPUForge apply on this host (" + Journal.PATH + " absent)");
            return 1;
        }
        Journal j;
        try {
            j = new ObjectMapper().readValue(raw, Journal.class);
        } catch (JsonProcessingException e) {
            services.output().error("gpuforge verify: the journal " + Journal.PATH + " on the host is damaged: "
                    + e.getOriginalMessage());
            return 1;
        }
        Optional<String> problem = j == null ? Optional.of("it is empty") : JournalPolicy.problem(j);
        if (problem.isPresent()) {
            services.output().error("gpuforge verify: the journal " + Journal.PATH + " on the host is not one GPUForge"
                    + " wrote: " + problem.get());
            return 1;
        }
        if (j.state != Journal.State.APPLIED) {
            services.output().error("gpuforge verify: the last apply (" + j.id + ") is " + j.state + ", not applied"
                    + (j.unfinishedCommand == null ? "" : " ('" + j.unfinishedCommand + "' ran past its time limit)")
                    + (j.state == Journal.State.ROLLED_BACK ? "" : "; run 'gpuforge rollback' to finish it"));
            return 1;
        }
        List<PciAddress> functions = j.functions.stream().map(PciAddress::parse).toList();
        List<VerifyItem> items = Verifier.verify(facts, functions, j.kernelArgs);
        boolean ok = items.stream().allMatch(VerifyItem::ok);
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("journal", j.id);
            m.put("ok", ok);
            List<Object> list = new ArrayList<>();
            for (VerifyItem i : items) {
                list.add(Map.of("id", i.id(), "ok", i.ok(), "detail", i.detail()));
            }
            m.put("items", list);
            services.output().json(m);
        } else {
            for (VerifyItem i : items) {
                services.output().line((i.ok() ? "OK    " : "FAIL  ") + i.id() + ": " + i.detail());
            }
            services.output().line(ok ? "The host is set up as planned." : "The host is NOT as planned.");
        }
        return ok ? 0 : 1;
    }
}
