package io.gpuforge.ui.vmcreate;

import io.gpuforge.app.vmcreate.FirstBootProvisioning;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.app.vmcreate.VmCreateResult;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.PasswordField;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/** The wizard's cloud-init, GPU, summary and progress pages. */
final class LaterPages {

    private final UiContext ui;
    private final VmCreateServices services;
    private final I18n i18n;
    private final CreateVmWizardModel model;
    private final CreateVmWizard wizard;
    private final CreateVmWizardPages pages;
    private final Map<String, String> verdicts = new HashMap<>();
    private final TextArea log = new TextArea();
    private final Label status = new Label();
    private final ProgressIndicator spinner = new ProgressIndicator();
    private final Button cancel = new Button();
    private final Button console = new Button();
    private final Button provision = new Button();
    private final Label setup = new Label();
    private final ObservableList<Optional<GpuInfo>> gpuItems = FXCollections.observableArrayList();

    LaterPages(UiContext ui, VmCreateServices services, CreateVmWizardModel model, CreateVmWizard wizard,
               CreateVmWizardPages pages) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.model = model;
        this.wizard = wizard;
        this.pages = pages;
    }

    Node cloudInit() {
        TextField user = new TextField();
        user.setId("vmc-user");
        user.textProperty().bindBidirectional(model.user);
        PasswordField password = new PasswordField();
        password.setId("vmc-password");
        password.textProperty().bindBidirectional(model.password);
        TextArea keys = new TextArea();
        keys.setId("vmc-sshkeys");
        keys.setPrefRowCount(3);
        keys.setWrapText(true);
        keys.setPromptText("ssh-ed25519 AAAA… user@laptop");
        keys.textProperty().bindBidirectional(model.sshKeys);
        CheckBox fixed = new CheckBox(i18n.get("vmcreate.ci.static"));
        fixed.setId("vmc-static");
        fixed.selectedProperty().bindBidirectional(model.staticIp);
        TextField ip = new TextField();
        ip.setId("vmc-ip");
        ip.setPromptText("192.0.2.10/24");
        ip.textProperty().bindBidirectional(model.ip);
        TextField gateway = new TextField();
        gateway.setId("vmc-gateway");
        gateway.textProperty().bindBidirectional(model.gateway);
        TextField dns = new TextField();
        dns.setId("vmc-dns");
        dns.setPromptText("192.0.2.1 1.1.1.1");
        dns.textProperty().bindBidirectional(model.dns);
        ip.disableProperty().bind(model.staticIp.not());
        gateway.disableProperty().bind(model.staticIp.not());
        GridPane g = CreateVmWizardPages.grid();
        g.addRow(0, new Label(i18n.get("vmcreate.ci.user")), user);
        g.add(pages.message(VmField.CI_USER), 1, 1);
        g.addRow(2, new Label(i18n.get("vmcreate.ci.password")), password);
        g.addRow(3, new Label(i18n.get("vmcreate.ci.keys")), keys);
        g.add(pages.message(VmField.SSH_KEYS), 1, 4);
        g.add(fixed, 1, 5);
        g.addRow(6, new Label(i18n.get("vmcreate.ci.ip")), ip);
        g.add(pages.message(VmField.IP), 1, 7);
        g.addRow(8, new Label(i18n.get("vmcreate.ci.gateway")), gateway);
        g.add(pages.message(VmField.GATEWAY), 1, 9);
        g.addRow(10, new Label(i18n.get("vmcreate.ci.dns")), dns);
        g.add(pages.message(VmField.DNS), 1, 11);
        GridPane vars = CreateVmWizardPages.grid();
        vars.setId("vmc-variables");
        Runnable fill = () -> {
            vars.getChildren().clear();
            VmTemplate t = model.template.get();
            List<VmTemplate.Variable> vs = t == null ? List.of() : t.variables();
            for (int i = 0; i < vs.size(); i++) {
                VmTemplate.Variable v = vs.get(i);
                TextField f = v.secret() ? new PasswordField() : new TextField();
                f.setId("vmc-var-" + v.name());
                f.setText(model.variables.getOrDefault(v.name(), ""));
                f.textProperty().addListener((o, a, text) -> model.variables.put(v.name(), text));
                vars.addRow(i, new Label(v.label()), f);
            }
        };
        model.template.addListener(o -> fill.run());
        fill.run();
        Label windows = new Label(i18n.get("vmcreate.ci.windows"));
        windows.setWrapText(true);
        windows.getStyleClass().add("text-muted");
        var isWindows = Bindings.createBooleanBinding(() -> model.template.get() != null
                && model.template.get().os() == VmTemplate.Os.WINDOWS, model.template);
        windows.visibleProperty().bind(isWindows);
        windows.managedProperty().bind(isWindows);
        g.visibleProperty().bind(isWindows.not());
        g.managedProperty().bind(g.visibleProperty());
        Label note = new Label();
        note.setWrapText(true);
        note.getStyleClass().add("text-muted");
        note.textProperty().bind(Bindings.createStringBinding(() -> model.target().map(t -> t.proxmox()
                ? i18n.get("vmcreate.ci.pveNote") : i18n.get("vmcreate.ci.libvirtNote")).orElse(""), model.node));
        return new VBox(12, windows, g, vars, pages.message(VmField.OTHER), note);
    }

    Node gpu() {
        ListView<Optional<GpuInfo>> list = new ListView<>(gpuItems);
        list.setId("vmc-gpus");
        list.setPrefHeight(220);
        list.setCellFactory(TextCells.of(g -> g.map(x -> i18n.get("vmcreate.gpu.item", x.address(), x.name(),
                        x.iommuGroup().isPresent() ? String.valueOf(x.iommuGroup().getAsInt()) : "?",
                        x.mapping().orElse("—"), verdicts.getOrDefault(x.address().toString(),
                                i18n.get("vmcreate.gpu.unchecked")))).orElse(i18n.get("vmcreate.gpu.none"))));
        Runnable fill = () -> {
            VmProvisioning.Choices c = model.choices.get();
            List<Optional<GpuInfo>> items = new ArrayList<>();
            items.add(Optional.empty());
            if (c != null) {
                c.freeGpus().forEach(g -> items.add(Optional.of(g)));
            }
            gpuItems.setAll(items);
            list.getSelectionModel().select(Optional.ofNullable(model.gpu.get()));
            readVerdicts(list);
        };
        model.choices.addListener(o -> fill.run());
        fill.run();
        list.getSelectionModel().selectedItemProperty().addListener((o, a, g) -> model.gpu.set(g == null ? null
                : g.orElse(null)));
        Label hint = new Label(i18n.get("vmcreate.gpu.hint"));
        hint.setWrapText(true);
        hint.getStyleClass().add("text-muted");
        return new VBox(10, list, pages.message(VmField.GPU), hint);
    }

    /**
     * The readiness verdict of each GPU, when the node's host is known: linked (as the passthrough wizard links it)
     * or the Demo lab's simulated host; else "not checked".
     */
    private void readVerdicts(ListView<?> list) {
        Optional<VmProvisioning.Target> t = model.target();
        if (t.isEmpty() || model.choices.get() == null || model.choices.get().freeGpus().isEmpty()) {
            return;
        }
        ui.tasks().supply("vmcreate-verdicts", () -> {
            if (!services.hosts().hasHost(t.get().connection(), t.get().node())) {
                return List.<GpuVerdict>of();
            }
            var reading = services.hosts().read(new HostTarget.Linked(t.get().connection(), t.get().node()),
                    new FxHostKeyPrompt(ui.dialogs(), ui.i18n()));
            return services.passthrough().verdicts(reading, PassthroughOverrides.none());
        }).onSuccess(vs -> {
            Optional<Instant> at = services.passthrough().verifiedAt(t.get().connection(), t.get().node());
            vs.forEach(v -> verdicts.put(v.address().toString(), verdictText(v, at)));
            list.refresh();
        }).onError(e -> { }).start();
    }

    private String verdictText(GpuVerdict v, Optional<Instant> verifiedAt) {
        switch (v.verdict().kind()) {
            case READY:
                return verifiedAt.map(at -> i18n.get("vmcreate.gpu.readyVerified",
                        DateTimeFormatter.ofPattern("HH:mm").format(at.atZone(ZoneId.systemDefault()))))
                        .orElse(i18n.get("vmcreate.gpu.ready"));
            case NEEDS_HOST_SETUP:
                return i18n.get("vmcreate.gpu.needsSetup");
            default:
                return i18n.get("vmcreate.gpu.blocked");
        }
    }

    Node summary() {
        TextArea text = new TextArea();
        text.setId("vmc-summary");
        text.setEditable(false);
        text.setPrefRowCount(22);
        text.setStyle("-fx-font-family: monospace;");
        text.textProperty().bind(Bindings.createStringBinding(this::summaryText, model.errors, model.warnings,
                model.template, model.name, model.cores, model.memoryMiB, model.diskGiB, model.storage, model.network,
                model.gpu, model.user, model.sshKeys, model.staticIp, model.ip, model.cloneSource, model.linked));
        CheckBox start = new CheckBox(i18n.get("vmcreate.summary.start"));
        start.setId("vmc-start");
        start.selectedProperty().bindBidirectional(model.start);
        return new VBox(10, text, start);
    }

    private String summaryText() {
        if (model.template.get() == null || model.target().isEmpty() || model.choices.get() == null) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        VmProvisioning.Request r = model.request();
        r.cloneOf().ifPresent(c -> s.append(i18n.get("vmcreate.summary.clone", c.source().ref().id(), c.source().name(),
                c.linked() ? i18n.get("vmcreate.summary.linked", c.sourceStorage().orElse("?"))
                        : i18n.get("vmcreate.summary.full", r.storage()))).append('\n'));
        s.append(i18n.get("vmcreate.summary.values", r.target().connection().name(), r.target().node(),
                r.template().name(), r.name(), r.cores(), r.memoryMiB(), r.diskGiB(), r.cpuType(), r.storage(),
                r.network(), r.gpu().map(g -> g.address() + " " + g.name()).orElse(i18n.get("vmcreate.gpu.none")),
                r.cloudInit().map(c -> c.user()).orElse("—"))).append("\n\n");
        if (r.target().proxmox() && r.cloneOf().isEmpty() && r.cloudInit().isPresent()
                && r.template().userData().isPresent()) {
            s.append(model.choices.get().noSnippet().map(why -> i18n.get("vmcreate.summary.noSnippet", why))
                    .orElse(i18n.get("vmcreate.summary.snippet"))).append("\n\n");
        }
        model.warnings.values().forEach(w -> s.append("! ").append(w).append('\n'));
        model.errors.values().forEach(w -> s.append("✗ ").append(w).append('\n'));
        s.append(i18n.get("vmcreate.summary.calls")).append('\n');
        try {
            s.append(VmProvisioning.preview(r, model.choices.get()));
        } catch (IllegalArgumentException e) {
            s.append(e.getMessage());
        }
        return s.toString();
    }

    Node progress() {
        log.setId("vmc-log");
        log.setEditable(false);
        log.setPrefRowCount(12);
        log.setStyle("-fx-font-family: monospace;");
        status.setId("vmc-status");
        status.setWrapText(true);
        spinner.setPrefSize(28, 28);
        cancel.setId("vmc-cancel-create");
        cancel.setText(i18n.get("vmcreate.progress.cancel"));
        console.setId("vmc-console");
        console.setText(i18n.get("vmcreate.progress.console"));
        console.setOnAction(e -> wizard.openConsole());
        console.setDisable(true);
        provision.setId("vmc-provision");
        provision.setText(i18n.get("vmcreate.progress.provision"));
        provision.setOnAction(e -> wizard.provision());
        provision.setDisable(true);
        provision.setVisible(false);
        setup.setId("vmc-setup");
        setup.setWrapText(true);
        return new VBox(10, new HBox(10, spinner, status), setup, log, new HBox(10, cancel, console, provision));
    }

    void createStarted() {
        log.clear();
        status.getStyleClass().remove("danger");
        status.setText(i18n.get("vmcreate.progress.running", model.name.get()));
        spinner.setVisible(true);
        cancel.setDisable(false);
        console.setDisable(true);
        provision.setDisable(true);
        provision.setVisible(false);
        setup.setText("");
    }

    void log(String line) {
        log.appendText(line + "\n");
    }

    void onCancel(Runnable r) {
        cancel.setOnAction(e -> {
            cancel.setDisable(true);
            r.run();
        });
    }

    void createFinished(VmCreateResult r) {
        spinner.setVisible(false);
        cancel.setDisable(true);
        r.notes().stream().filter(n -> !log.getText().contains(n)).forEach(this::log); // some were progress already
        if (r.vm().isPresent()) {
            status.setText(i18n.get("vmcreate.progress.done", model.name.get(), r.vm().get().id(), r.vm().get().node()));
            console.setDisable(false);
            switch (r.userDataWay()) {
                case GUEST_AGENT:
                    r.firstBoot().ifPresent(this::setupFinished);
                    break;
                case GUEST_AGENT_LATER:
                    setupShown(i18n.get("vmcreate.progress.setupLater"), false);
                    break;
                default:
                    break;
            }
        } else {
            status.getStyleClass().add("danger");
            status.setText(i18n.get("vmcreate.progress.notCreated", r.outcome().status()));
        }
    }

    /** How the template's setup over the guest agent went; the button runs it (again) unless it went well. */
    void setupFinished(FirstBootProvisioning.Outcome o) {
        spinner.setVisible(false);
        setupShown(o.ok() ? i18n.get("vmcreate.progress.setupRan", String.join(", ", o.modulesRun()))
                : i18n.get("vmcreate.progress.setupFailed", o.message()), !o.ok());
        provision.setDisable(o.ok());
    }

    void setupStarted(String vmId) {
        spinner.setVisible(true);
        provision.setDisable(true);
        setupShown(i18n.get("vmcreate.progress.setupRunning", vmId), false);
    }

    void setupShown(String text, boolean danger) {
        setup.setText(text);
        setup.getStyleClass().remove("danger");
        if (danger) {
            setup.getStyleClass().add("danger");
        }
        provision.setVisible(true);
        provision.setDisable(false);
    }

    void createFailed(String message) {
        spinner.setVisible(false);
        cancel.setDisable(true);
        status.getStyleClass().add("danger");
        status.setText(i18n.get("vmcreate.progress.failed", message));
        log(message);
    }

}
