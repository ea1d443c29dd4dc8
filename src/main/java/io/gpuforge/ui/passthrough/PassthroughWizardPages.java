package io.gpuforge.ui.passthrough;

import io.gpuforge.app.words.Words;
import io.gpuforge.ui.common.DiffView;
import io.gpuforge.app.passthrough.PassthroughStatus;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.VerifyItem;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.ui.common.WizardFrame;
import io.gpuforge.ui.common.Wrapped;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.iommu.IommuGroupsViewModel;
import io.gpuforge.ui.iommu.IommuTable;
import java.util.Optional;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.BooleanProperty;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;

/** The content of each wizard page, built from the model; the frame around them is {@link PassthroughWizard}. */
final class PassthroughWizardPages {

    private final PassthroughWizardModel m;
    private final I18n i18n;

    PassthroughWizardPages(PassthroughWizardModel model) {
        this.m = model;
        this.i18n = model.ui.i18n();
    }

    Node host() {
        ListView<Preselection> list = list("pt-hosts", m.hosts, m::describe);
        list.getSelectionModel().select(m.host.get());
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> m.host.set(b));
        return page("passthrough.host.intro", list);
    }

    Node gpu() {
        ListView<GpuVerdict> list = new ListView<>(m.gpus);
        list.setId("pt-gpus");
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(GpuVerdict g, boolean empty) {
                super.updateItem(g, empty);
                if (empty || g == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                Label badge = new Label(i18n.get(IommuGroupsViewModel.verdictKey(g.verdict().kind())));
                badge.getStyleClass().addAll("badge", IommuTable.styleOf(g.verdict().kind()), "verdict-badge");
                badge.setMinWidth(Region.USE_PREF_SIZE);
                Label name = new Label(g.address() + "  " + g.name().orElse(""));
                HBox row = new HBox(10, badge, name);
                setText(null);
                setGraphic(row);
            }
        });
        m.gpus.stream().filter(g -> g.address().equals(m.gpu.get())).findFirst()
                .ifPresent(g -> list.getSelectionModel().select(g));
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> m.gpu.set(b == null ? null : b.address()));
        Label none = new Label(i18n.get("passthrough.gpu.none"));
        none.visibleProperty().bind(Bindings.isEmpty(m.gpus));
        none.managedProperty().bind(none.visibleProperty());
        return page("passthrough.gpu.intro", none, list);
    }

    Node readiness(Runnable runAll, Runnable refresh) {
        VBox box = new VBox(10);
        Button again = new Button(i18n.get("passthrough.readiness.refresh"), Icons.of(Feather.REFRESH_CW));
        again.setId("pt-refresh");
        again.disableProperty().bind(m.busy);
        again.setOnAction(e -> refresh.run());
        box.getChildren().add(again);
        PassthroughStatus s = m.status.get();
        if (m.blocked()) {
            box.getChildren().add(message("wizard-message-error", i18n.get("passthrough.readiness.blocked")));
        } else if (s != null) {
            stageMessage(s).ifPresent(box.getChildren()::add);
        }
        if (!m.blocked() && s != null && s.stage() != PassthroughStatus.Stage.INTERRUPTED && !m.vms.isEmpty()) {
            // one click comes first, where it is seen; the checks it rests on follow
            box.getChildren().add(oneClick(runAll));
        }
        box.getChildren().add(new ReadinessView(m.report.get(), i18n, c -> s != null && s.fixedByPlan(c)
                ? Optional.of("passthrough.check.planFixes")
                : PassthroughStatus.checkedAtAttach(c) ? Optional.of("passthrough.check.atAttach") : Optional.empty()));
        CheckBox shared = check("pt-override-shared", "passthrough.override.shared", m.allowSharedGroup);
        CheckBox critical = check("pt-override-critical", "passthrough.override.critical", m.allowHostCritical);
        Label overrides = wrapped(new Label(i18n.get("passthrough.override.intro")));
        overrides.getStyleClass().add("text-muted");
        box.getChildren().addAll(overrides, shared, critical);
        if (m.hasWarnings() && !m.blocked()) {
            box.getChildren().add(check("pt-ack", "passthrough.readiness.acknowledge", m.warningsAcknowledged));
        }
        return page("passthrough.readiness.intro", scroll(box));
    }

    /** When everything passes: pick the VM and run Apply → Reboot → Verify → Attach after one confirmation. */
    private Node oneClick(Runnable runAll) {
        ComboBox<VmInfo> vm = new ComboBox<>(m.vms);
        vm.setId("pt-oneclick-vm");
        vm.setConverter(TextCells.converter(v -> v.ref().id() + "  " + v.name()));
        vm.valueProperty().bindBidirectional(m.vm);
        Button go = new Button(i18n.get("passthrough.oneClick.run"), Icons.of(Feather.ZAP));
        go.setId("pt-run-all");
        go.getStyleClass().add("success");
        go.disableProperty().bind(m.busy.or(m.vm.isNull()).or(Bindings.createBooleanBinding(() -> m.hasWarnings()
                && !m.warningsAcknowledged.get(), m.warningsAcknowledged)));
        go.setOnAction(e -> runAll.run());
        HBox row = new HBox(10, new Label(i18n.get("passthrough.oneClick.vm")), vm, go);
        row.setAlignment(Pos.CENTER_LEFT);
        Label hint = wrapped(new Label(i18n.get("passthrough.oneClick.hint")));
        hint.getStyleClass().add("text-muted");
        return new VBox(6, row, hint);
    }

    private Optional<Node> stageMessage(PassthroughStatus s) {
        switch (s.stage()) {
            case IN_PLACE:
                return Optional.of(message("wizard-message-ok", i18n.get("passthrough.status.inPlace")));
            case CONFIGURED_NOT_REBOOTED:
                return Optional.of(message("wizard-message-info", i18n.get("passthrough.status.notRebooted")));
            case INTERRUPTED:
                return Optional.of(message("wizard-message-error", i18n.get("passthrough.status.interrupted",
                        s.journalId().orElse("?"))));
            default:
                return Optional.empty();
        }
    }

    Node plan() {
        PassthroughPlan p = m.plan().orElseThrow();
        VBox box = new VBox(10);
        box.getChildren().add(section("passthrough.plan.files", p.edits().size()));
        box.getChildren().add(new DiffView(p.edits()));
        box.getChildren().add(section("passthrough.plan.commands", p.commands().size()));
        VBox commands = new VBox(2);
        commands.setId("pt-commands");
        commands.getStyleClass().add("output-log");
        p.commands().forEach(c -> commands.getChildren().add(new Label("# " + c)));
        box.getChildren().add(commands);
        Words words = new Words(i18n.getLocale());
        p.notes().forEach(n -> {
            Label l = wrapped(new Label(words.text(n)));
            l.getStyleClass().add("text-muted");
            box.getChildren().add(l);
        });
        box.getChildren().add(message(p.rebootNeeded() ? "wizard-message-info" : "wizard-message-ok",
                i18n.get(p.rebootNeeded() ? "passthrough.plan.reboot" : "passthrough.plan.noReboot")));
        return page("passthrough.plan.intro", scroll(box));
    }

    Node apply() {
        Label state = new Label();
        state.setId("pt-apply-state");
        state.textProperty().bind(Bindings.createStringBinding(() -> m.applied.get() != null
                ? i18n.get("passthrough.apply.done", m.applied.get().outcome().journalId(),
                        m.applied.get().outcome().backupDir().orElse("-"))
                : m.error.get().isEmpty() ? i18n.get("passthrough.apply.running")
                : i18n.get("passthrough.apply.failed", m.error.get()), m.applied, m.error));
        state.setWrapText(true);
        return page("passthrough.apply.intro", state, output());
    }

    Node reboot(Runnable rebootNow, Runnable later) {
        VBox box = new VBox(10);
        Optional<String> cannot = m.cannotReboot();
        if (cannot.isPresent()) {
            box.getChildren().add(message("wizard-message-info", cannot.get()));
        } else {
            Button now = new Button(i18n.get("passthrough.reboot.now"), Icons.of(Feather.REFRESH_CW));
            now.setId("pt-reboot-now");
            now.getStyleClass().add("accent");
            now.disableProperty().bind(m.busy.or(m.rebooted.isNotNull()));
            now.setOnAction(e -> rebootNow.run());
            Button defer = new Button(i18n.get("passthrough.reboot.later"));
            defer.setId("pt-reboot-later");
            defer.disableProperty().bind(m.busy.or(m.rebooted.isNotNull()));
            defer.setOnAction(e -> later.run());
            box.getChildren().add(new HBox(10, now, defer));
        }
        Label state = new Label();
        state.setId("pt-reboot-state");
        state.setWrapText(true);
        state.textProperty().bind(Bindings.createStringBinding(() -> m.rebooted.get() != null
                ? i18n.get("passthrough.reboot.back", m.rebooted.get().took().toSeconds(), m.rebooted.get().bootIdAfter())
                : m.error.get(), m.rebooted, m.error));
        Label status = new Label();
        status.setId("pt-reboot-status");
        status.setWrapText(true);
        status.textProperty().bind(m.rebootStatus);
        status.visibleProperty().bind(m.rebootStatus.isNotEmpty().and(m.rebooted.isNull()));
        status.managedProperty().bind(status.visibleProperty());
        box.getChildren().addAll(state, status, output());
        return page("passthrough.reboot.intro", box);
    }

    Node verify() {
        VBox items = new VBox(4);
        items.setId("pt-verify-items");
        Runnable render = () -> {
            items.getChildren().clear();
            if (m.verified.get() != null) {
                items.getChildren().add(message(m.verified.get().ok() ? "wizard-message-ok" : "wizard-message-error",
                        i18n.get(m.verified.get().ok() ? "passthrough.verify.ok" : "passthrough.verify.failed")));
                Words words = new Words(i18n.getLocale());
                for (VerifyItem i : m.verified.get().items()) {
                    Label l = new Label(words.text(i.detail()), Icons.of(i.ok() ? Feather.CHECK_CIRCLE : Feather.X_CIRCLE));
                    l.getGraphic().getStyleClass().add(i.ok() ? "check-icon-pass" : "check-icon-fail");
                    l.setWrapText(true);
                    items.getChildren().add(l);
                }
            } else if (!m.error.get().isEmpty()) {
                items.getChildren().add(message("wizard-message-error", m.error.get()));
            }
        };
        m.verified.addListener((o, a, b) -> render.run());
        m.error.addListener((o, a, b) -> render.run());
        render.run();
        return page("passthrough.verify.intro", scroll(items));
    }

    /** @param createVm opens the VM wizard, where the window has it (else no button) */
    Node attach(Optional<Runnable> createVm) {
        if (m.host.get().connection().isEmpty()) {
            return page("passthrough.attach.noHypervisor");
        }
        ListView<VmInfo> list = list("pt-vms", m.vms, v -> v.ref().id() + "  " + v.name() + "  (" + v.state() + ")");
        list.getSelectionModel().select(m.vm.get());
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> m.attaching.chosen(b));
        Button create = new Button(i18n.get("passthrough.attach.create"), Icons.of(Feather.PLUS));
        create.setId("pt-create-vm");
        create.setOnAction(e -> createVm.ifPresent(Runnable::run));
        create.setVisible(createVm.isPresent());
        create.setManaged(createVm.isPresent());
        return page("passthrough.attach.intro", list, new HBox(10, create), AttachPlanView.of(m));
    }

    Node done(Runnable start, Runnable whyFailed) {
        VBox box = new VBox(10);
        box.getChildren().add(message("wizard-message-ok", i18n.get("passthrough.done.attached", m.gpu.get(),
                m.vm.get().ref().id(), m.vm.get().name())));
        VBox changes = new VBox(2);
        changes.setId("pt-changes");
        changes.getStyleClass().add("output-log");
        m.attached.get().changes().forEach(c -> changes.getChildren().add(new Label(c)));
        Button startVm = new Button(i18n.get("passthrough.done.start"), Icons.of(Feather.PLAY));
        startVm.setId("pt-start-vm");
        startVm.disableProperty().bind(m.busy);
        startVm.setOnAction(e -> start.run());
        // once started (the guest's answers are shown) or when it already runs, there is nothing left to start
        if (m.vm.get().state() == VmState.RUNNING) {
            startVm.setVisible(false);
        } else {
            startVm.visibleProperty().bind(m.guest.isEmpty());
        }
        startVm.managedProperty().bind(startVm.visibleProperty());
        Label guest = new Label();
        guest.setId("pt-guest");
        guest.getStyleClass().add("output-log");
        guest.textProperty().bind(Bindings.createStringBinding(() -> m.error.get().isEmpty()
                ? m.guest.get() : m.error.get(), m.guest, m.error));
        Button why = new Button(i18n.get("diagnose.vm.action"), Icons.of(Feather.HELP_CIRCLE));
        why.setId("pt-why");
        why.visibleProperty().bind(m.troubled);
        why.managedProperty().bind(why.visibleProperty());
        why.setOnAction(e -> whyFailed.run());
        box.getChildren().addAll(new Label(i18n.get("passthrough.done.changes")), changes, startVm, guest, why);
        return page("passthrough.done.intro", scroll(box));
    }

    private ListView<String> output() {
        ListView<String> out = new ListView<>(m.output);
        out.setId("pt-output");
        out.getStyleClass().add("output-log");
        out.setPrefHeight(300);
        VBox.setVgrow(out, Priority.ALWAYS);
        m.output.addListener((ListChangeListener<String>) c -> out.scrollTo(m.output.size() - 1));
        return out;
    }

    private <T> ListView<T> list(String id, ObservableList<T> items, Function<T, String> text) {
        ListView<T> list = new ListView<>(items);
        list.setId(id);
        list.setCellFactory(TextCells.of(text));
        VBox.setVgrow(list, Priority.ALWAYS);
        return list;
    }

    private CheckBox check(String id, String key, BooleanProperty p) {
        CheckBox c = wrapped(new CheckBox(i18n.get(key)));
        c.setId(id);
        c.selectedProperty().bindBidirectional(p);
        return c;
    }

    private Label section(String key, Object... args) {
        Label l = new Label(i18n.get(key, args));
        l.getStyleClass().add("title-4");
        return l;
    }

    /** A label that wraps and keeps the height of its lines (a VBox would cut it to one line otherwise). */
    static <T extends Labeled> T wrapped(T l) {
        return Wrapped.wrapped(l);
    }

    static Label message(String style, String text) {
        Label l = WizardFrame.message(style, text);
        l.setId("pt-message");
        return l;
    }

    private static ScrollPane scroll(Node n) {
        return WizardFrame.scroll(n);
    }

    private VBox page(String introKey, Node... content) {
        return WizardFrame.page(i18n.get(introKey), content);
    }
}
