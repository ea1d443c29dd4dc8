package io.gpuforge.ui.cluster;

import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSummary;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.NodeShares;
import io.gpuforge.domain.share.RawLxc;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.Loadable;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import io.gpuforge.ui.common.Wrapped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;

/**
 * A container's page: its state and node, the actions it offers now (start, shut down, stop, delete, "Migrate to
 * devN…" when it has its GPU the old way, and what other features add), its size, the GPU it shares, its device
 * entries and its raw lxc lines (marked: the old way, whose device numbers change between kernels). Renders; the
 * configuration is read when the page opens and again when the container changes.
 */
final class ContainerPage extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();
    /** Held strongly: a binding only weakly observes its source. */
    private final ObjectBinding<ContainerSummary> info;
    private final Loadable<ContainerInfo> config;
    private final I18n i18n;
    private final GridPane facts = new GridPane();
    private final Label configState = Wrapped.wrapped(new Label());

    ContainerPage(UiContext ui, ClusterModel cluster, String node, int vmid, ContainerActions actions,
                  List<Node> extraActions) {
        this.i18n = ui.i18n();
        getStyleClass().add("ct-page");
        setPadding(new Insets(12));
        setSpacing(10);
        info = Bindings.createObjectBinding(() -> {
            ClusterInventory inv = cluster.inventory().valueProperty().get();
            return inv == null ? null : inv.container(node, vmid).orElse(null);
        }, cluster.inventory().valueProperty());
        config = new Loadable<>(ui.tasks(), () -> cluster.session().container(node, vmid),
                i18n.get("share.task.ctConfig", vmid));

        Label title = new Label();
        title.setId("ct-title");
        title.getStyleClass().add("title-3");
        Label state = new Label();
        state.setId("ct-state");
        Label where = new Label();
        where.getStyleClass().add("text-muted");
        HBox header = new HBox(10, Icons.of(Feather.PACKAGE, 20), title, state, where);

        ActionBar<ContainerActions.Kind, ContainerSummary> actionBar = new ActionBar<>("ct", ContainerActions.Kind.class,
                scope, i18n, ContainerActions::key, ContainerActions::icon, info::get, actions::can, actions::run);
        FlowPane bar = actionBar.bar();
        Map<ContainerActions.Kind, Button> buttons = actionBar.buttons();
        bar.getChildren().addAll(extraActions);
        facts.setHgap(16);
        facts.setVgap(6);
        facts.setId("ct-config");
        configState.setId("ct-config-state");
        ScrollPane scroll = new ScrollPane(new VBox(10, configState, facts));
        scroll.setFitToWidth(true);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        getChildren().setAll(header, bar, scroll);

        Runnable render = () -> {
            ContainerSummary c = info.get();
            title.setText("CT " + vmid + (c == null ? "" : " " + c.name()));
            state.setText(c == null ? i18n.get("share.ct.gone") : c.status().matches("running|stopped|paused")
                    ? i18n.get("vm.state." + c.status()) : c.status());
            state.getStyleClass().setAll("label", "badge", c != null && c.running() ? "badge-ok" : "badge-muted");
            where.setText(i18n.get("console.vm.onNode", node, cluster.session().connection().name()));
            buttons.forEach((k, b) -> b.setDisable(!actions.can(k, c)));
            renderConfig(c, cluster.shares(node));
        };
        scope.listen(info, (o, a, b) -> {
            render.run();
            config.changed();
        });
        // shares are read again after a change of devices made here (a migration, a GPU added): so is the page's
        scope.listen(cluster.shares().valueProperty(), (o, a, b) -> {
            render.run();
            config.changed();
        });
        scope.listen(config.valueProperty(), (o, a, b) -> render.run());
        scope.listen(config.errorProperty(), (o, a, b) -> render.run());
        scope.listen(i18n.localeProperty(), (o, a, b) -> render.run());
        render.run();
        config.loadOnce();
    }

    private void renderConfig(ContainerSummary c, Optional<NodeShares> shares) {
        ContainerInfo ci = config.valueProperty().get();
        String error = config.errorProperty().get();
        configState.setText(error != null ? i18n.get("console.vm.configError", error)
                : ci == null ? i18n.get("console.vm.configLoading") : "");
        facts.getChildren().clear();
        int row = 0;
        if (c != null) {
            row = fact(row, "share.ct.cores", "ct-cores", c.cores() > 0 ? String.valueOf(c.cores())
                    : i18n.get("value.unknown"));
            row = fact(row, "share.ct.memory", "ct-memory", c.maxMemBytes() > 0 ? ConsoleFormat.bytes(c.maxMemBytes())
                    : i18n.get("value.unknown"));
        }
        int vmid = ci != null ? ci.vmid() : c != null ? c.vmid() : -1;
        Optional<GpuShare> gpu = shares.flatMap(s -> s.sharedBy(vmid));
        row = fact(row, "share.ct.gpu", "ct-gpu", gpuText(gpu, shares, vmid));
        if (ci == null) {
            return;
        }
        List<String> settings = new ArrayList<>();
        // cores and memory are above, as the cluster lists them
        ci.settings().forEach((k, v) -> {
            if (!k.equals("cores") && !k.equals("memory")) {
                settings.add(k + ": " + v);
            }
        });
        row = lines(row, "share.ct.settings", "ct-settings", settings);
        List<String> devs = new ArrayList<>();
        ci.devices().forEach((i, d) -> devs.add("dev" + i + ": " + d.value()));
        row = lines(row, "share.ct.devices", "ct-devices", devs);
        List<String> raw = ci.lxc().stream().map(RawLxc::line).toList();
        row = lines(row, "share.ct.lxc", "ct-lxc", raw);
        boolean legacy = gpu.flatMap(g -> g.containers().stream().filter(u -> u.vmid() == vmid).findFirst())
                .map(ContainerUse::legacy).orElse(false);
        if (legacy) {
            Label warn = Wrapped.wrapped(new Label(i18n.get("share.ct.legacyWarning")));
            warn.setId("ct-legacy");
            warn.getStyleClass().addAll("badge", "badge-warn");
            facts.add(warn, 0, row, 2, 1);
        }
    }

    private String gpuText(Optional<GpuShare> gpu, Optional<NodeShares> shares, int vmid) {
        if (gpu.isPresent()) {
            GpuShare g = gpu.get();
            return g.gpu().orElse("") + g.name().map(n -> " " + ConsoleFormat.shortName(n)).orElse("")
                    + g.driver().map(d -> " (" + d + ")").orElse("");
        }
        if (shares.isEmpty()) {
            return i18n.get("share.ct.gpuLoading");
        }
        boolean unmatched = shares.get().unmatched().stream().anyMatch(u -> u.vmid() == vmid);
        return unmatched ? i18n.get("share.ct.gpuUnmatched", shares.get().factsMissing().orElse("")) : i18n.get(
                "share.ct.gpuNone");
    }

    private int fact(int row, String key, String id, String value) {
        return new FactRows(i18n, facts).fact(row, key, id, value);
    }

    private int lines(int row, String key, String id, List<String> items) {
        return new FactRows(i18n, facts).list(row, key, id, items);
    }

    @Override
    public void dispose() {
        scope.dispose();
        info.dispose();
    }
}
