package io.gpuforge.ui.iommu;

import io.gpuforge.domain.GpuPlacement;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.IommuGroup;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.ViewScope;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.value.ObservableValue;

/**
 * The IOMMU view's state: follows a source of host facts (a probe, or what a hypervisor reports), its error and
 * the language, and turns them into one {@link IommuTable}, so the state line and the rows always change together.
 * Made per view and disposed with it.
 */
public final class IommuGroupsViewModel {

    private final ObservableValue<HostFacts> facts;
    private final ObservableValue<String> error;
    private final I18n i18n;
    private final ReadOnlyObjectWrapper<IommuTable> table = new ReadOnlyObjectWrapper<>();
    private final ViewScope scope = new ViewScope();

    public IommuGroupsViewModel(ObservableValue<HostFacts> facts, ObservableValue<String> error, I18n i18n) {
        this.facts = facts;
        this.error = error;
        this.i18n = i18n;
        scope.listen(facts, (o, a, b) -> update());
        scope.listen(error, (o, a, b) -> update());
        scope.listen(i18n.localeProperty(), (o, a, b) -> update());
        update();
    }

    public ReadOnlyObjectProperty<IommuTable> tableProperty() {
        return table.getReadOnlyProperty();
    }

    /** Lets go of the long-lived sources (the view's tab was closed). */
    public void dispose() {
        scope.dispose();
    }

    private void update() {
        table.set(of(facts.getValue(), error.getValue(), i18n));
    }

    /** Pure: the table for facts (null while loading) and an error (null when none). */
    public static IommuTable of(HostFacts f, String err, I18n i18n) {
        if (err != null) {
            return new IommuTable(i18n.get("iommu.error", err), List.of());
        }
        if (f == null) {
            return new IommuTable(i18n.get("iommu.loading"), List.of());
        }
        String reason = i18n.get("iommu.reason." + f.iommuReason().name().toLowerCase(Locale.ROOT));
        String state = i18n.get("iommu.state", f.pci().groups().size(), f.pci().gpus().size(), reason);
        Map<PciAddress, GpuPlacement> byFunction = new HashMap<>();
        Map<Integer, GpuPlacement> byGroup = new HashMap<>();
        for (GpuPlacement p : f.pci().gpus()) {
            p.functions().forEach(a -> byFunction.put(a, p));
            byGroup.merge(p.group(), p, (x, y) -> x.isolation().compareTo(y.isolation()) >= 0 ? x : y);
        }
        List<IommuTable.Group> groups = new ArrayList<>();
        for (IommuGroup g : f.pci().groups()) {
            GpuPlacement gp = byGroup.get(g.id());
            String summary = gp == null ? i18n.get("iommu.group.devices", g.members().size())
                    : i18n.get("iommu.group.gpu." + IommuTable.styleOf(gp.isolation()));
            List<IommuTable.Device> devices = new ArrayList<>();
            for (PciAddress a : g.members()) {
                f.pci().device(a).ifPresent(d -> devices.add(new IommuTable.Device(d, Optional.ofNullable(byFunction.get(a))
                        .or(() -> Optional.ofNullable(gp)).map(GpuPlacement::isolation))));
            }
            // GPUs are what this view is for: their groups open, the others folded
            groups.add(new IommuTable.Group(g.id(), summary, Optional.ofNullable(gp).map(GpuPlacement::isolation),
                    gp != null, devices));
        }
        return new IommuTable(state, groups);
    }
}
