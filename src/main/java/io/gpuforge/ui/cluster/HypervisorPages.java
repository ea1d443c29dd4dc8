package io.gpuforge.ui.cluster;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.PageFactory;
import io.gpuforge.ui.common.UiContext;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import javafx.beans.binding.Bindings;
import org.kordamp.ikonli.feather.Feather;

/**
 * Every connection with a hypervisor behind it (Proxmox VE, the Demo lab, libvirt), through the one service
 * layer: no page knows which backend answers. The kinds come from the app ({@code Sessions.isHypervisor}).
 */
public final class HypervisorPages implements PageFactory {

    private final UiContext ui;
    private final BiConsumer<ConnectionInfo, HostFacts> onFacts;
    private final Map<Long, ClusterModel> models = new ConcurrentHashMap<>();

    /** @param onFacts told when a node's PCI devices arrive (the tree lists the GPUs of one-node connections) */
    public HypervisorPages(UiContext ui, BiConsumer<ConnectionInfo, HostFacts> onFacts) {
        this.ui = ui;
        this.onFacts = onFacts;
    }

    private ClusterModel model(ConnectionInfo c) {
        return models.computeIfAbsent(c.id(), id -> {
            ClusterModel m = new ClusterModel(ui.app().sessions().of(c), ui.tasks(), ui.i18n());
            m.pci().valueProperty().addListener((o, a, f) -> {
                if (f != null && m.current().map(inv -> inv.nodes().size() == 1).orElse(false)) {
                    onFacts.accept(c, f);
                }
            });
            return m;
        });
    }

    @Override
    public Optional<Page> page(NavItem item) {
        return item.connection().filter(c -> ui.app().sessions().isHypervisor(c.kind())).map(this::page);
    }

    private Page page(ConnectionInfo c) {
        ClusterModel m = model(c);
        Feather icon = c.kind() == ConnectionInfo.Kind.LIBVIRT ? Feather.SERVER : Feather.CLOUD;
        return new Page("tab-cluster-" + c.id(), Bindings.createStringBinding(c::name), Icons.of(icon), () -> {
            ClusterPage page = new ClusterPage(m, ui.i18n());
            m.inventory().loadOnce();
            m.watch(e -> ui.app().events().info(c.name(), ui.i18n().get("event.change", e.kind().name()
                    .toLowerCase(Locale.ROOT).replace('_', ' '), e.vm().map(v -> v.id()).orElse(""), e.detail())),
                    t -> ui.app().events().warn(c.name(), ui.i18n().get("event.noLiveUpdates", t.getMessage())));
            return page;
        });
    }

    /** A removed connection: its model, feed and session go. */
    public void forget(long connectionId) {
        ClusterModel m = models.remove(connectionId);
        if (m != null) {
            m.dispose();
        }
        ui.app().sessions().forget(connectionId);
    }

    @Override
    public void refresh() {
        models.values().forEach(ClusterModel::refresh);
    }

    @Override
    public void dispose() {
        models.values().forEach(ClusterModel::dispose);
        models.clear();
    }
}
