package io.gpuforge.ui.cluster;

import io.gpuforge.app.passthrough.NodeReadiness;
import io.gpuforge.domain.Capability;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.Loadable;
import io.gpuforge.ui.common.NodePageExtension;
import io.gpuforge.ui.common.ShowsIommu;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.iommu.IommuGroupsView;
import java.util.List;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.stage.Window;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.feather.Feather;

/**
 * A node's page: summary (versions, kernel, uptime, CPU, memory), charts of its recorded CPU, memory and network,
 * its PCI devices by IOMMU group, its GPUs and where they are assigned, and which of them can be passed through;
 * plus what other features add. Each tab reads its data when first opened.
 */
final class NodePage extends TabPane implements Disposable, ShowsIommu {

    private final Tab iommu;
    private final IommuGroupsView groups;
    private final Tab gpus;

    NodePage(UiContext ui, ClusterServices services, ClusterModel cluster, NodeModel model,
             ContainerActions containers, List<NodePageExtension> extensions, Window owner) {
        I18n i18n = ui.i18n();
        String idPrefix = "node-" + cluster.session().connection().id() + "-" + model.node();
        getStyleClass().addAll("host-page", "node-page");
        setTabClosingPolicy(TabClosingPolicy.UNAVAILABLE);
        Tab summary = tab(idPrefix + "-summary", "host.tab.summary", Feather.INFO,
                new NodeSummaryView(model.status(), i18n), i18n);
        Tab charts = tab(idPrefix + "-charts", "console.node.tab.charts", Feather.TRENDING_UP,
                new NodeChartsView(model, cluster.session().can(Capability.NODE_HISTORY), i18n), i18n);
        groups = new IommuGroupsView(model.pci().valueProperty(), model.pci().loadingProperty(),
                model.pci().errorProperty(), i18n);
        groups.assignments(cluster.assignments(new ReadOnlyObjectWrapper<>(model.node())));
        ConnectionInfo c = cluster.session().connection();
        groups.onPassThrough(address -> ui.links().passthrough().ifPresent(p -> p.open(owner, c, model.node(),
                address)));
        iommu = tab(idPrefix + "-iommu", "host.tab.iommu", Feather.LAYERS, groups, i18n);
        gpus = tab(idPrefix + "-gpus", "console.node.tab.gpus", Feather.CPU, new NodeGpusView(cluster, model.node(), containers, i18n),
                i18n);
        Loadable<NodeReadiness.Result> readiness = model.readiness(() -> new Loadable<>(cluster.tasks(),
                () -> services.readiness().of(cluster.session().connection(), model.node(),
                        new FxHostKeyPrompt(ui.dialogs(), i18n)),
                i18n.get("console.task.readiness", model.node())));
        Tab ready = tab(idPrefix + "-readiness", "console.node.tab.readiness", Feather.CHECK_CIRCLE,
                new NodeReadinessView(readiness, i18n), i18n);
        getTabs().setAll(summary, charts, iommu, gpus, ready);
        NodePageExtension.Context context = new NodePageExtension.Context(ui, cluster.session().connection(),
                model.node(), owner);
        for (NodePageExtension x : extensions) {
            getTabs().addAll(x.tabs(context));
        }
        model.status().loadOnce();
        iommu.selectedProperty().addListener((o, was, now) -> {
            if (now) {
                model.pci().loadOnce();
            }
        });
        ready.selectedProperty().addListener((o, was, now) -> {
            if (now) {
                readiness.loadOnce();
            }
        });
    }

    private static Tab tab(String id, String key, Ikon icon, Node content, I18n i18n) {
        Tab t = new Tab();
        t.setId(id);
        t.textProperty().bind(i18n.text(key));
        t.setGraphic(Icons.of(icon));
        t.setContent(content);
        return t;
    }

    @Override
    public void showIommu() {
        getSelectionModel().select(iommu);
    }

    @Override
    public void showIommu(io.gpuforge.domain.pci.PciAddress device) {
        showIommu();
        groups.select(device);
    }

    /** Brings the GPUs tab to the front (a GPU of the tree was opened). */
    void showGpus() {
        getSelectionModel().select(gpus);
    }

    @Override
    public void dispose() {
        for (Tab t : getTabs()) {
            t.textProperty().unbind();
            Disposable.of(t.getContent());
        }
    }
}
