package io.gpuforge.ui.share;

import io.gpuforge.app.passthrough.CheckMessages;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.WizardFrame;
import io.gpuforge.ui.common.Wrapped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The container wizard's pages, built from its model each time a step is shown. FX thread. */
final class ContainerWizardPages {

    private final ContainerWizardModel m;
    private final I18n i18n;

    ContainerWizardPages(ContainerWizardModel m) {
        this.m = m;
        this.i18n = m.i18n;
    }

    Node node() {
        ListView<String> list = new ListView<>(m.nodes);
        list.setId("ct-wizard-nodes");
        list.getSelectionModel().select(m.node.get());
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) {
                m.node.set(b);
            }
        });
        VBox.setVgrow(list, Priority.ALWAYS);
        return page("share.wizard.node.intro", list);
    }

    Node template() {
        ComboBox<String> templates = combo("ct-wizard-template", m.templates, m.template);
        TextField name = new TextField();
        name.setId("ct-wizard-hostname");
        name.textProperty().bindBidirectional(m.hostname);
        name.setPromptText("cuda-01");
        Spinner<Integer> id = spinner("ct-wizard-vmid", 100, 999_999_999, m.vmid);
        GridPane grid = grid();
        row(grid, 0, "share.wizard.template", templates);
        row(grid, 1, "share.wizard.hostname", name);
        row(grid, 2, "share.wizard.vmid", id);
        Node[] extra = m.templates.isEmpty() ? new Node[] {grid, message("wizard-message-error",
                i18n.get("share.wizard.noTemplates", m.node.get()))} : new Node[] {grid};
        return page("share.wizard.template.intro", extra);
    }

    Node resources() {
        GridPane grid = grid();
        row(grid, 0, "share.wizard.cores", spinner("ct-wizard-cores", 1, 512, m.cores));
        row(grid, 1, "share.wizard.memory", spinner("ct-wizard-memory", 64, 4_194_304, m.memoryMiB));
        row(grid, 2, "share.wizard.storage", combo("ct-wizard-storage", m.storages, m.storage));
        row(grid, 3, "share.wizard.disk", spinner("ct-wizard-disk", 1, 131_072, m.diskGiB));
        row(grid, 4, "share.wizard.bridge", combo("ct-wizard-bridge", m.bridges, m.bridge));
        CheckBox start = Wrapped.wrapped(new CheckBox(i18n.get("share.wizard.start")));
        start.setId("ct-wizard-start");
        start.selectedProperty().bindBidirectional(m.start);
        return page("share.wizard.resources.intro", grid, start);
    }

    /** The GPUs of the node's host with whether each can be shared; the chosen one's checks; "none" first. */
    Node gpu(Runnable rollback) {
        List<Optional<ShareReadiness>> choices = new ArrayList<>();
        choices.add(Optional.empty());
        m.gpus.forEach(g -> choices.add(Optional.of(g)));
        ListView<Optional<ShareReadiness>> list = new ListView<>(javafx.collections.FXCollections
                .observableArrayList(choices));
        list.setId("ct-wizard-gpus");
        list.setPrefHeight(150);
        list.setCellFactory(TextCells.of(r -> r.map(this::gpuLine).orElse(i18n.get("share.wizard.noGpu"))));
        list.getSelectionModel().select(Optional.ofNullable(m.gpu.get()));
        VBox detail = new VBox(6);
        detail.setId("ct-wizard-gpu-detail");
        Runnable show = () -> {
            detail.getChildren().clear();
            ShareReadiness r = m.gpu.get();
            if (r == null) {
                return;
            }
            detail.getChildren().addAll(checks(r, i18n));
            if (r.hostDriver().filter("vfio-pci"::equals).isPresent()) {
                Button back = new Button(i18n.get("share.wizard.rollback"));
                back.setId("ct-wizard-rollback");
                back.setOnAction(e -> rollback.run());
                detail.getChildren().addAll(message("wizard-message-info", i18n.get("share.wizard.onVfio", r.gpu())),
                        back);
            }
        };
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            m.gpu.set(b == null ? null : b.orElse(null));
            show.run();
        });
        show.run();
        return page("share.wizard.gpu.intro", list, scroll(detail));
    }

    /** A GPU's share checks in the UI's language, each with its fix, coloured by how it went. */
    static List<Node> checks(ShareReadiness r, I18n i18n) {
        CheckMessages words = new CheckMessages(i18n.getLocale());
        List<Node> out = new ArrayList<>();
        for (Check c : r.checks()) {
            String style = c.status() == Check.Status.PASS ? "wizard-message-ok"
                    : c.status() == Check.Status.FAIL ? "wizard-message-error" : "wizard-message-info";
            out.add(message(style, words.message(c) + words.fix(c).map(f -> "\n→ " + f).orElse("")));
        }
        return out;
    }

    private String gpuLine(ShareReadiness r) {
        return gpuLine(r, m.names, i18n);
    }

    /** "0000:03:00.0  GeForce RTX 3090  (nvidia)  · ready to share". */
    static String gpuLine(ShareReadiness r, ShareService.HostGpus names, I18n i18n) {
        String state = switch (r.verdict().kind()) {
            case READY -> i18n.get("share.wizard.gpuReady");
            case NEEDS_HOST_SETUP -> i18n.get("share.wizard.gpuNeedsPlan");
            case BLOCKED -> i18n.get("share.wizard.gpuBlocked");
        };
        return r.gpu() + "  " + names.name(r) + "  (" + r.hostDriver().orElse("?") + ")  · " + state;
    }

    Node hostPlan() {
        VBox box = new VBox(8);
        if (m.hostPlan.get() != null) {
            box.getChildren().addAll(PlanView.of(m.hostPlan.get(), i18n));
        }
        if (m.hostApplied.get() != null) {
            box.getChildren().add(message("wizard-message-ok", i18n.get("share.plan.applied",
                    m.hostApplied.get().outcome().journalId(), m.hostApplied.get().host())));
        }
        return page("share.wizard.hostplan.intro", scroll(box), output());
    }

    Node driver() {
        ShareReadiness r = m.gpu.get();
        String version = r == null ? "" : r.driverVersion().orElse("");
        Label v = message("wizard-message-info", version.isEmpty() ? i18n.get("share.wizard.driverUnknown")
                : i18n.get("share.wizard.driverVersion", version));
        v.setId("ct-wizard-driver");
        TextField command = new TextField(version.isEmpty() ? "" : "sh NVIDIA-Linux-x86_64-" + version
                + ".run --no-kernel-module");
        command.setId("ct-wizard-driver-command");
        command.setEditable(false);
        return page("share.wizard.driver.intro", v, command);
    }

    Node summary() {
        VBox calls = new VBox();
        calls.setId("ct-wizard-calls");
        calls.getStyleClass().add("diff-view");
        for (String line : m.calls()) {
            Label l = new Label(line);
            l.getStyleClass().addAll("diff-line", line.startsWith(" ") ? "diff-context" : "diff-file");
            l.setMaxWidth(Double.MAX_VALUE);
            calls.getChildren().add(l);
        }
        return page("share.wizard.summary.intro", scroll(calls));
    }

    Node create() {
        Label state = Wrapped.wrapped(new Label());
        state.setId("ct-wizard-state");
        state.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> m.created.get() == null
                ? i18n.get("share.wizard.creating") : m.created.get().ok()
                ? i18n.get("share.wizard.created", m.vmid.get(), m.hostname.get(), m.node.get())
                : i18n.get("share.wizard.createFailed", m.created.get().status()), m.created));
        return page("share.wizard.create.intro", state, output());
    }

    private ListView<String> output() {
        ListView<String> out = new ListView<>(m.output);
        out.setId("ct-wizard-output");
        out.getStyleClass().add("output-log");
        out.setPrefHeight(200);
        VBox.setVgrow(out, Priority.ALWAYS);
        m.output.addListener((ListChangeListener<String>) c -> out.scrollTo(m.output.size() - 1));
        return out;
    }

    private static ComboBox<String> combo(String id, ObservableList<String> items, ObjectProperty<String> value) {
        ComboBox<String> c = new ComboBox<>(items);
        c.setId(id);
        c.setMaxWidth(Double.MAX_VALUE);
        c.valueProperty().bindBidirectional(value);
        return c;
    }

    private static Spinner<Integer> spinner(String id, int min, int max, IntegerProperty value) {
        Spinner<Integer> s = new Spinner<>(min, max, Math.max(min, Math.min(max, value.get())));
        s.setId(id);
        s.setEditable(true);
        IntConsumer set = value::set;
        s.valueProperty().addListener((o, a, b) -> {
            if (b != null) {
                set.accept(b);
            }
        });
        value.addListener((o, a, b) -> s.getValueFactory().setValue(b.intValue()));
        return s;
    }

    private static GridPane grid() {
        GridPane g = new GridPane();
        g.setHgap(12);
        g.setVgap(8);
        return g;
    }

    private void row(GridPane g, int row, String key, Node control) {
        Label l = new Label(i18n.get(key));
        l.getStyleClass().add("text-muted");
        GridPane.setHgrow(control, Priority.ALWAYS);
        g.addRow(row, l, control);
    }

    static Label message(String style, String text) {
        return WizardFrame.message(style, text);
    }

    private static ScrollPane scroll(Node n) {
        return WizardFrame.scroll(n);
    }

    private VBox page(String introKey, Node... content) {
        return WizardFrame.page(i18n.get(introKey), content);
    }
}
