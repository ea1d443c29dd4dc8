package io.gpuforge.ui.iommu;

import io.gpuforge.app.passthrough.CheckMessages;
import io.gpuforge.app.passthrough.ListingText;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.passthrough.Coverage;
import io.gpuforge.domain.pci.GpuPlacement;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuGroup;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.ViewScope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;

/**
 * The IOMMU view's state: follows a source of host facts (a probe, or what a hypervisor reports), its error, the
 * language, the filter text and the VMs the devices are assigned to, and turns them into one {@link IommuTable}, so
 * the state line and the rows always change together. Made per view and disposed with it.
 */
public final class IommuGroupsViewModel {

    private final ObservableValue<HostFacts> facts;
    private final ObservableValue<String> error;
    private final I18n i18n;
    private final StringProperty filter = new SimpleStringProperty("");
    private final ObjectProperty<Map<PciAddress, String>> vms = new SimpleObjectProperty<>(Map.of());
    private final ObjectProperty<Coverage> coverage = new SimpleObjectProperty<>(Coverage.wholeHost());
    private final ReadOnlyObjectWrapper<IommuTable> table = new ReadOnlyObjectWrapper<>();
    private final ViewScope scope = new ViewScope();

    public IommuGroupsViewModel(ObservableValue<HostFacts> facts, ObservableValue<String> error, I18n i18n) {
        this.facts = facts;
        this.error = error;
        this.i18n = i18n;
        scope.listen(facts, (o, a, b) -> update());
        scope.listen(error, (o, a, b) -> update());
        scope.listen(i18n.localeProperty(), (o, a, b) -> update());
        filter.addListener((o, a, b) -> update());
        vms.addListener((o, a, b) -> update());
        coverage.addListener((o, a, b) -> update());
        update();
    }

    public ReadOnlyObjectProperty<IommuTable> tableProperty() {
        return table.getReadOnlyProperty();
    }

    /** What the filter box holds: only groups with a device that matches are shown. */
    public StringProperty filterProperty() {
        return filter;
    }

    /** Which VM each PCI function is assigned to, where the source knows (a hypervisor's inventory). */
    public ObjectProperty<Map<PciAddress, String>> vmsProperty() {
        return vms;
    }

    /** How much of the host the facts show (a pasted listing may show part of it). */
    public ObjectProperty<Coverage> coverageProperty() {
        return coverage;
    }

    /** The groups as the classic listing (what "Copy as text" puts on the clipboard); empty while nothing is read. */
    public String copyText() {
        HostFacts f = facts.getValue();
        return f == null ? "" : ListingText.of(f);
    }

    /** Lets go of the long-lived sources (the view's tab was closed). */
    public void dispose() {
        scope.dispose();
    }

    private void update() {
        table.set(of(facts.getValue(), error.getValue(), i18n, vms.get(), filter.get(), coverage.get()));
    }

    /** Pure: the table for facts (null while loading) and an error (null when none). */
    public static IommuTable of(HostFacts f, String err, I18n i18n) {
        return of(f, err, i18n, Map.of(), "", Coverage.wholeHost());
    }

    /** Pure: the table, with the VMs devices are assigned to, a filter and how much of the host the facts show. */
    public static IommuTable of(HostFacts f, String err, I18n i18n, Map<PciAddress, String> vms, String filter,
                                Coverage coverage) {
        if (err != null) {
            return new IommuTable(i18n.get("iommu.error", err), List.of());
        }
        if (f == null) {
            return new IommuTable(i18n.get("iommu.loading"), List.of());
        }
        String reason = i18n.get("iommu.reason." + f.iommuReason().name().toLowerCase(Locale.ROOT));
        Map<PciAddress, GpuPlacement> byFunction = new HashMap<>();
        Map<Integer, GpuPlacement> byGroup = new HashMap<>();
        for (GpuPlacement p : f.pci().gpus()) {
            p.functions().forEach(a -> byFunction.put(a, p));
            byGroup.merge(p.group(), p, (x, y) -> x.isolation().compareTo(y.isolation()) >= 0 ? x : y);
        }
        Map<PciAddress, IommuTable.Badge> badges = badges(f, coverage, i18n);
        String wanted = filter == null ? "" : filter.strip().toLowerCase(Locale.ROOT);
        List<IommuTable.Group> groups = new ArrayList<>();
        for (IommuGroup g : f.pci().groups()) {
            GpuPlacement gp = byGroup.get(g.id());
            String summary = gp == null ? i18n.get("iommu.group.devices", g.members().size())
                    : i18n.get("iommu.group.gpu." + IommuTable.styleOf(gp.isolation()));
            List<IommuTable.Device> devices = new ArrayList<>();
            for (PciAddress a : g.members()) {
                f.pci().device(a).ifPresent(d -> devices.add(new IommuTable.Device(d, Optional.ofNullable(byFunction.get(a))
                        .or(() -> Optional.ofNullable(gp)).map(GpuPlacement::isolation), Optional.ofNullable(vms.get(a)),
                        Optional.ofNullable(badges.get(a)))));
            }
            String label = i18n.get("iommu.group", g.id()).toLowerCase(Locale.ROOT);
            if (!wanted.isEmpty() && !label.contains(wanted) && devices.stream().noneMatch(d -> matches(d, wanted))) {
                continue;
            }
            // GPUs are what this view is for: their groups first and open, the others folded
            groups.add(new IommuTable.Group(g.id(), summary, Optional.ofNullable(gp).map(GpuPlacement::isolation),
                    gp != null || !wanted.isEmpty(), devices));
        }
        groups.sort(Comparator.comparing((IommuTable.Group g) -> !g.gpu()).thenComparingInt(IommuTable.Group::id));
        String state = i18n.get("iommu.state", f.pci().groups().size(), f.pci().gpus().size(), reason);
        if (!wanted.isEmpty()) {
            state = state + " " + i18n.get("iommu.filtered", groups.size());
        }
        return new IommuTable(state, groups);
    }

    private static boolean matches(IommuTable.Device d, String wanted) {
        return (d.address() + " " + d.ids() + " " + d.name() + " " + d.driver() + " " + d.classCode() + " "
                + d.vm().orElse("")).toLowerCase(Locale.ROOT).contains(wanted);
    }

    /** Each GPU's verdict badge, with the checks behind it (message and fix) for the tooltip. */
    static Map<PciAddress, IommuTable.Badge> badges(HostFacts f, Coverage coverage, I18n i18n) {
        CheckMessages m = new CheckMessages(i18n.getLocale());
        Map<PciAddress, IommuTable.Badge> out = new HashMap<>();
        for (GpuVerdict v : PassthroughService.verdictsOf(f, coverage, PassthroughOverrides.none())) {
            String reasons = v.behind().stream().filter(c -> c.status() != Check.Status.PASS)
                    .map(c -> "• " + m.message(c) + m.fix(c).map(x -> "\n   " + i18n.get("iommu.verdict.fix", x)).orElse(""))
                    .collect(Collectors.joining("\n"));
            String text = i18n.get(verdictKey(v.verdict().kind()));
            out.put(v.address(), new IommuTable.Badge(v.verdict().kind(), text, reasons.isEmpty()
                    ? i18n.get("iommu.verdict.noReasons") : reasons));
        }
        return out;
    }

    /** The text key of a verdict's badge (the IOMMU view's, the passthrough wizard's, Analyse a listing's). */
    public static String verdictKey(Verdict.Kind k) {
        switch (k) {
            case READY:
                return "iommu.verdict.ready";
            case NEEDS_HOST_SETUP:
                return "iommu.verdict.needs-host-setup";
            default:
                return "iommu.verdict.blocked";
        }
    }

    /**
     * Which VM each function of a node's GPUs is assigned to, from a hypervisor's inventory ("101 (train-01)"), for
     * {@link IommuGroupsView#assignments}: the whole card (every function in its slot) goes with the GPU. Pure.
     */
    public static Map<PciAddress, String> assignmentsOf(ClusterInventory inv, String node, HostFacts facts) {
        Map<PciAddress, String> out = new HashMap<>();
        for (GpuInfo g : inv.gpusOn(node)) {
            g.assignedTo().ifPresent(ref -> {
                String label = inv.vm(ref).map(v -> ref.id() + " (" + v.name() + ")").orElse(ref.id());
                out.put(g.address(), label);
                if (facts != null) {
                    facts.pci().devices().stream().filter(d -> d.address().sameSlot(g.address()))
                            .forEach(d -> out.put(d.address(), label));
                }
            });
        }
        return out;
    }
}
