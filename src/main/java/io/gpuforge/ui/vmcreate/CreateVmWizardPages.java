package io.gpuforge.ui.vmcreate;

import io.gpuforge.app.vmcreate.FirstBootProvisioning;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.app.vmcreate.VmCreateResult;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.NetworkInfo;
import io.gpuforge.domain.vm.StorageInfo;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.Property;
import javafx.collections.FXCollections;
import javafx.collections.MapChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.Node;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The wizard's pages as nodes bound to the {@link CreateVmWizardModel}; each field has a message line under it
 * with its error (red) or warning. The cloud-init, GPU, summary and progress pages are in {@link LaterPages}.
 */
final class CreateVmWizardPages {

    private final UiContext ui;
    private final I18n i18n;
    private final CreateVmWizardModel model;
    private final CreateVmWizard wizard;
    private final Map<CreateVmWizardModel.Step, Node> built = new EnumMap<>(CreateVmWizardModel.Step.class);
    private final Label loadProblem = new Label();
    private final LaterPages later;
    private final SourcePage source;

    CreateVmWizardPages(UiContext ui, VmCreateServices services, CreateVmWizardModel model, CreateVmWizard wizard) {
        this.ui = ui;
        this.i18n = ui.i18n();
        this.model = model;
        this.wizard = wizard;
        this.later = new LaterPages(ui, services, model, wizard, this);
        this.source = new SourcePage(ui, services, model, wizard, this);
        loadProblem.setId("vmc-load-problem");
        loadProblem.getStyleClass().add("danger");
        loadProblem.setWrapText(true);
    }

    Node page(CreateVmWizardModel.Step p) {
        return built.computeIfAbsent(p, this::build);
    }

    private Node build(CreateVmWizardModel.Step p) {
        switch (p) {
            case TARGET:
                return target();
            case TEMPLATE:
                return source.page();
            case NAME:
                return name();
            case RESOURCES:
                return resources();
            case PLACEMENT:
                return placement();
            case CLOUD_INIT:
                return later.cloudInit();
            case GPU:
                return later.gpu();
            case SUMMARY:
                return later.summary();
            default:
                return later.progress();
        }
    }

    /** The first error of the page shown, for the line beside the buttons. */
    StringBinding pageProblem(ObjectProperty<CreateVmWizardModel.Step> page) {
        return Bindings.createStringBinding(() -> model.errors.entrySet().stream()
                .filter(e -> CreateVmWizardModel.pageOf(e.getKey()) == page.get()
                        || page.get() == CreateVmWizardModel.Step.SUMMARY)
                .map(Map.Entry::getValue).findFirst().orElse(""), model.errors, page);
    }

    void loadFailed(String message) {
        loadProblem.setText(i18n.get("vmcreate.loadFailed", message));
    }

    static GridPane grid() {
        GridPane g = new GridPane();
        g.setHgap(12);
        g.setVgap(6);
        ColumnConstraints labels = new ColumnConstraints();
        labels.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints fields = new ColumnConstraints();
        fields.setHgrow(Priority.ALWAYS);
        g.getColumnConstraints().setAll(labels, fields);
        return g;
    }

    /** A message line for a field: its error, else its warning. */
    Label message(VmField f) {
        Label l = new Label();
        l.setId("vmc-msg-" + f.name().toLowerCase().replace('_', '-'));
        l.setWrapText(true);
        l.setMaxWidth(520);
        l.textProperty().bind(Bindings.createStringBinding(() -> model.errors.containsKey(f) ? model.errors.get(f)
                : model.warnings.getOrDefault(f, ""), model.errors, model.warnings));
        Runnable style = () -> {
            l.getStyleClass().removeAll("danger", "badge-warn");
            l.getStyleClass().add(model.errors.containsKey(f) ? "danger" : "badge-warn");
        };
        model.errors.addListener((MapChangeListener<VmField, String>) c -> style.run());
        style.run();
        l.visibleProperty().bind(l.textProperty().isNotEmpty());
        l.managedProperty().bind(l.visibleProperty());
        return l;
    }

    private Node target() {
        ChoiceBox<ConnectionInfo> connection = new ChoiceBox<>(wizard.connections);
        connection.setId("vmc-connection");
        connection.setConverter(TextCells.converter(c -> c.name() + " (" + c.address() + ")"));
        connection.valueProperty().bindBidirectional(model.connection);
        ChoiceBox<String> node = new ChoiceBox<>(wizard.nodes);
        node.setId("vmc-node");
        node.valueProperty().bindBidirectional(model.node);
        Label status = new Label();
        status.setId("vmc-target-status");
        status.setWrapText(true);
        status.textProperty().bind(Bindings.createStringBinding(() -> {
            VmProvisioning.Choices c = model.choices.get();
            if (c == null) {
                return model.target().isPresent() ? i18n.get("vmcreate.target.reading") : "";
            }
            return i18n.get("vmcreate.target.status", c.status().cpus(), gib(c.freeMemoryBytes()),
                    gib(c.status().memoryTotalBytes().orElse(0)), c.diskStorages().size(), c.networks().size(),
                    c.freeGpus().size());
        }, model.choices, model.node));
        Label none = new Label(i18n.get("vmcreate.target.none"));
        none.setWrapText(true);
        none.getStyleClass().add("text-muted");
        none.visibleProperty().bind(Bindings.isEmpty(wizard.connections));
        none.managedProperty().bind(none.visibleProperty());
        GridPane g = grid();
        g.addRow(0, new Label(i18n.get("vmcreate.target.connection")), connection);
        g.addRow(1, new Label(i18n.get("vmcreate.target.node")), node);
        VBox box = new VBox(12, g, status, none, loadProblem);
        return box;
    }

    private Node name() {
        TextField name = new TextField();
        name.setId("vmc-name");
        name.textProperty().bindBidirectional(model.name);
        Label id = new Label();
        id.setWrapText(true);
        id.getStyleClass().add("text-muted");
        id.textProperty().bind(Bindings.createStringBinding(() -> model.target().map(t -> t.proxmox()
                ? i18n.get("vmcreate.name.pveId") : i18n.get("vmcreate.name.libvirtId")).orElse(""), model.connection,
                model.node));
        GridPane g = grid();
        g.addRow(0, new Label(i18n.get("vmcreate.name.name")), name);
        g.add(message(VmField.NAME), 1, 1);
        g.add(message(VmField.VMID), 1, 2);
        return new VBox(12, g, id);
    }

    private Spinner<Integer> spinner(String id, int min, int max, int step, Property<Integer> value) {
        Spinner<Integer> s = new Spinner<>(min, max, min, step);
        s.setId(id);
        s.setEditable(true);
        s.getValueFactory().valueProperty().bindBidirectional(value);
        // a bidirectional binding holds its ends weakly: keep the adapter of IntegerProperty.asObject()
        s.getProperties().put("vmc-value", value);
        return s;
    }

    private Node resources() {
        TextField cpu = new TextField();
        cpu.setId("vmc-cpu");
        cpu.textProperty().bindBidirectional(model.cpuType);
        GridPane g = grid();
        g.addRow(0, new Label(i18n.get("vmcreate.resources.cores")), spinner("vmc-cores", 1, 512, 1,
                model.cores.asObject()));
        g.add(message(VmField.CORES), 1, 1);
        g.addRow(2, new Label(i18n.get("vmcreate.resources.memory")), spinner("vmc-memory", 64, 16 * 1024 * 1024, 1024,
                model.memoryMiB.asObject()));
        g.add(message(VmField.MEMORY), 1, 3);
        Spinner<Integer> disk = spinner("vmc-disk", 1, 65_536, 8, model.diskGiB.asObject());
        disk.disableProperty().bind(model.cloneSource.isNotNull());
        Label cloneDisk = new Label();
        cloneDisk.setId("vmc-clone-disk");
        cloneDisk.setWrapText(true);
        cloneDisk.getStyleClass().add("text-muted");
        cloneDisk.textProperty().bind(Bindings.createStringBinding(() -> model.cloneSource.get() == null ? ""
                : i18n.get("vmcreate.resources.cloneDisk", model.diskGiB.get()), model.cloneSource, model.diskGiB));
        cloneDisk.visibleProperty().bind(model.cloneSource.isNotNull());
        cloneDisk.managedProperty().bind(cloneDisk.visibleProperty());
        g.addRow(4, new Label(i18n.get("vmcreate.resources.disk")), disk);
        g.add(new VBox(2, message(VmField.DISK), cloneDisk), 1, 5);
        g.addRow(6, new Label(i18n.get("vmcreate.resources.cpu")), cpu);
        g.add(message(VmField.CPU_TYPE), 1, 7);
        return g;
    }

    private Node placement() {
        ObservableList<String> storages = FXCollections.observableArrayList();
        ObservableList<String> networks = FXCollections.observableArrayList();
        Map<String, String> storageText = new HashMap<>();
        Runnable fill = () -> {
            VmProvisioning.Choices c = model.choices.get();
            List<StorageInfo> s = c == null ? List.of() : c.diskStorages();
            List<NetworkInfo> n = c == null ? List.of() : c.networks();
            storageText.clear();
            s.forEach(x -> storageText.put(x.name(), i18n.get("vmcreate.placement.storageItem", x.name(), x.type(),
                    gib(x.availableBytes()), gib(x.totalBytes()))));
            String keepS = model.storage.get();
            String keepN = model.network.get();
            storages.setAll(s.stream().map(StorageInfo::name).toList());
            networks.setAll(n.stream().map(NetworkInfo::name).toList());
            model.storage.set(keepS);
            model.network.set(keepN);
        };
        model.choices.addListener(o -> fill.run());
        fill.run();
        ChoiceBox<String> storage = new ChoiceBox<>(storages);
        storage.setId("vmc-storage");
        storage.setConverter(TextCells.converter(n -> storageText.getOrDefault(n, n)));
        storage.valueProperty().bindBidirectional(model.storage);
        storage.disableProperty().bind(Bindings.createBooleanBinding(() -> model.cloneSource.get() != null
                && model.linked.get(), model.cloneSource, model.linked));
        ChoiceBox<String> network = new ChoiceBox<>(networks);
        network.setId("vmc-network");
        network.valueProperty().bindBidirectional(model.network);
        Label image = new Label();
        image.setWrapText(true);
        image.getStyleClass().add("text-muted");
        image.textProperty().bind(Bindings.createStringBinding(() -> model.template.get() == null ? ""
                : model.cloneSource.get() != null ? "" : model.template.get().image().map(i -> i18n.get("vmcreate.placement.image", i.url()))
                .orElse(i18n.get("vmcreate.placement.noImage")), model.template, model.cloneSource));
        GridPane g = grid();
        g.addRow(0, new Label(i18n.get("vmcreate.placement.storage")), storage);
        g.add(message(VmField.STORAGE), 1, 1);
        g.addRow(2, new Label(i18n.get("vmcreate.placement.network")), network);
        g.add(message(VmField.NETWORK), 1, 3);
        return new VBox(12, g, image, message(VmField.IMAGE));
    }

    static String gib(long bytes) {
        return String.format("%.1f GiB", bytes / (double) (1L << 30));
    }


    void createStarted() {
        later.createStarted();
    }

    void log(String line) {
        later.log(line);
    }

    void createFinished(VmCreateResult r) {
        later.createFinished(r);
    }

    void createRefused(String message) {
        later.createFailed(message);
    }

    void createFailed(String message) {
        later.createFailed(message);
    }

    void onCancel(Runnable r) {
        later.onCancel(r);
    }

    void setupStarted(String vmId) {
        later.setupStarted(vmId);
    }

    void setupFinished(FirstBootProvisioning.Outcome o) {
        later.setupFinished(o);
    }

    void setupFailed(String message) {
        later.setupFinished(new FirstBootProvisioning.Outcome(false, List.of(), Optional.empty(), message));
    }
}
