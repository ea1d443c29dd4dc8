package io.gpuforge.ui.vmcreate;

import io.gpuforge.app.vmcreate.PasswordHash;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.vm.VmField;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.ui.common.I18n;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javafx.beans.Observable;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableMap;

/**
 * The wizard's state, one object for all its pages: what the user chose (as properties the pages bind to), what the
 * target offers, and the problems per field, from {@link VmProvisioning#check} (errors block Next on the page that
 * holds the field) or from the hypervisor's refusal of the create. No JavaFX nodes: tested without a window.
 */
public final class CreateVmWizardModel {

    /** The pages in order. */
    public enum Step { TARGET, TEMPLATE, NAME, RESOURCES, PLACEMENT, CLOUD_INIT, GPU, SUMMARY, CREATE }

    private static final Map<VmField, Step> PAGE_OF = new EnumMap<>(Map.ofEntries(Map.entry(VmField.NAME, Step.NAME),
            Map.entry(VmField.VMID, Step.NAME), Map.entry(VmField.CORES, Step.RESOURCES),
            Map.entry(VmField.MEMORY, Step.RESOURCES), Map.entry(VmField.CPU_TYPE, Step.RESOURCES),
            Map.entry(VmField.DISK, Step.RESOURCES), Map.entry(VmField.STORAGE, Step.PLACEMENT),
            Map.entry(VmField.NETWORK, Step.PLACEMENT), Map.entry(VmField.IMAGE, Step.PLACEMENT),
            Map.entry(VmField.CI_USER, Step.CLOUD_INIT), Map.entry(VmField.CI_PASSWORD, Step.CLOUD_INIT),
            Map.entry(VmField.SSH_KEYS, Step.CLOUD_INIT), Map.entry(VmField.IP, Step.CLOUD_INIT),
            Map.entry(VmField.GATEWAY, Step.CLOUD_INIT), Map.entry(VmField.DNS, Step.CLOUD_INIT),
            Map.entry(VmField.OTHER, Step.CLOUD_INIT), Map.entry(VmField.GPU, Step.GPU),
            Map.entry(VmField.SOURCE, Step.TEMPLATE)));

    final ObjectProperty<ConnectionInfo> connection = new SimpleObjectProperty<>();
    final StringProperty node = new SimpleStringProperty("");
    final ObjectProperty<VmTemplate> template = new SimpleObjectProperty<>();
    /** A template VM to clone instead (its shape is then {@link #template}); null: build from the template. */
    final ObjectProperty<VmProvisioning.Clone> cloneSource = new SimpleObjectProperty<>();
    final BooleanProperty linked = new SimpleBooleanProperty(true);
    final StringProperty name = new SimpleStringProperty("");
    final IntegerProperty cores = new SimpleIntegerProperty(1);
    final IntegerProperty memoryMiB = new SimpleIntegerProperty(1024);
    final IntegerProperty diskGiB = new SimpleIntegerProperty(32);
    final StringProperty cpuType = new SimpleStringProperty("host");
    final StringProperty storage = new SimpleStringProperty("");
    final StringProperty network = new SimpleStringProperty("");
    final StringProperty user = new SimpleStringProperty("gpuforge");
    final StringProperty password = new SimpleStringProperty("");
    private String hashedPassword = "";
    private Optional<String> hash = Optional.empty();
    final StringProperty sshKeys = new SimpleStringProperty("");
    final BooleanProperty staticIp = new SimpleBooleanProperty(false);
    final StringProperty ip = new SimpleStringProperty("");
    final StringProperty gateway = new SimpleStringProperty("");
    final StringProperty dns = new SimpleStringProperty("");
    final ObservableMap<String, String> variables = FXCollections.observableHashMap();
    final ObjectProperty<GpuInfo> gpu = new SimpleObjectProperty<>();
    final BooleanProperty start = new SimpleBooleanProperty(true);
    final ObjectProperty<VmProvisioning.Choices> choices = new SimpleObjectProperty<>();
    /** Problems per field: the checks' and the hypervisor's refusal. */
    final ObservableMap<VmField, String> errors = FXCollections.observableMap(new EnumMap<>(VmField.class));
    final ObservableMap<VmField, String> warnings = FXCollections.observableMap(new EnumMap<>(VmField.class));
    private final Map<VmField, String> refused = new EnumMap<>(VmField.class);
    private final I18n i18n;

    CreateVmWizardModel(I18n i18n) {
        this.i18n = i18n;
        watch();
    }

    public static Step pageOf(VmField f) {
        return PAGE_OF.getOrDefault(f, Step.SUMMARY);
    }

    /** Takes a template's values as the starting point. */
    void apply(VmTemplate t) {
        cloneSource.set(null);
        shape(t);
    }

    /** Clones {@code c}, a template VM whose shape is {@code t}; a linked clone stays on the template's storage. */
    void applyClone(VmProvisioning.Clone c, VmTemplate t) {
        shape(t);
        linked.set(c.source().template());
        cloneSource.set(c);
        keepLinkedStorage();
    }

    private void keepLinkedStorage() {
        VmProvisioning.Clone c = cloneSource.get();
        if (c != null && linked.get() && c.sourceStorage().isPresent()) {
            storage.set(c.sourceStorage().get());
        }
    }

    private void shape(VmTemplate t) {
        template.set(t);
        cores.set(t.cores());
        memoryMiB.set(t.memoryMiB());
        diskGiB.set(t.diskGiB());
        cpuType.set(t.cpuType());
        if (name.get().isBlank()) {
            name.set(t.id() + "-01");
        }
        variables.clear();
        t.variables().forEach(v -> variables.put(v.name(), ""));
    }

    Optional<VmProvisioning.Target> target() {
        return connection.get() == null || node.get().isBlank() ? Optional.empty()
                : Optional.of(new VmProvisioning.Target(connection.get(), node.get()));
    }

    /**
     * The password's SHA-512 crypt hash, made once per password typed (with its own salt): only the hash goes into
     * the request, so the password itself reaches no snippet, seed, API call or log.
     */
    private Optional<String> passwordHash() {
        String typed = password.get();
        if (!typed.equals(hashedPassword)) {
            hash = PasswordHash.of(typed);
            hashedPassword = typed;
        }
        return hash;
    }

    /** The request as chosen so far (a template and a target are needed). */
    VmProvisioning.Request request() {
        VmTemplate t = template.get();
        Optional<CloudInit> ci = Optional.empty();
        if (t.os() == VmTemplate.Os.LINUX && user.get().matches("[a-z_][a-z0-9_-]{0,31}")) {
            CloudInit.Ip address = staticIp.get() ? new CloudInit.Static(ip.get().strip(),
                    Optional.of(gateway.get().strip()).filter(g -> !g.isEmpty())) : new CloudInit.Dhcp();
            List<String> keys = sshKeys.get().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
            List<String> servers = List.of(dns.get().strip().split("[ ,]+")).stream().filter(s -> !s.isEmpty()).toList();
            ci = Optional.of(new CloudInit(user.get(), passwordHash(), keys, address,
                    servers, Optional.empty(), Optional.empty()));
        }
        String cpu = cpuType.get().matches("[A-Za-z0-9][A-Za-z0-9_.+-]*") ? cpuType.get() : "host";
        return new VmProvisioning.Request(target().orElseThrow(), t, name.get().strip(), cores.get(), memoryMiB.get(),
                diskGiB.get(), storage.get(), network.get(), cpu, ci, new LinkedHashMap<>(variables),
                Optional.ofNullable(gpu.get()), start.get(), Optional.ofNullable(cloneSource.get())
                .map(c -> c.linked(linked.get())));
    }

    /** Checks the request again; a value the hypervisor refused stays an error until it is changed. */
    void recheck() {
        errors.clear();
        warnings.clear();
        if (template.get() == null || target().isEmpty() || choices.get() == null) {
            return;
        }
        if (!user.get().matches("[a-z_][a-z0-9_-]{0,31}") && template.get().os() == VmTemplate.Os.LINUX) {
            errors.put(VmField.CI_USER, i18n.get("vmcreate.error.user"));
        }
        if (!cpuType.get().matches("[A-Za-z0-9][A-Za-z0-9_.+-]*")) {
            errors.put(VmField.CPU_TYPE, i18n.get("vmcreate.error.cpu"));
        }
        io.gpuforge.app.words.Words words = new io.gpuforge.app.words.Words(i18n.getLocale());
        for (VmProvisioning.Problem p : VmProvisioning.check(request(), choices.get())) {
            (p.error() ? errors : warnings).merge(p.field(), words.text(p.message()), (a, b) -> a + "; " + b);
        }
        refused.forEach((f, m) -> errors.merge(f, m, (a, b) -> a + "; " + b));
    }

    /** The hypervisor refused these fields; shown on them until the value changes. */
    void refused(Map<VmField, String> fields) {
        refused.clear();
        refused.putAll(fields);
        recheck();
    }

    /** A field was edited: its refusal no longer applies. */
    void edited(VmField f) {
        refused.remove(f);
        recheck();
    }

    /** Checks again whenever a value changes; an edited field loses the hypervisor's refusal. */
    private void watch() {
        Map<VmField, List<Observable>> by = Map.ofEntries(Map.entry(VmField.NAME, List.of(name)),
                Map.entry(VmField.CORES, List.of(cores)), Map.entry(VmField.MEMORY, List.of(memoryMiB)),
                Map.entry(VmField.DISK, List.of(diskGiB)), Map.entry(VmField.CPU_TYPE, List.of(cpuType)),
                Map.entry(VmField.STORAGE, List.of(storage)), Map.entry(VmField.NETWORK, List.of(network)),
                Map.entry(VmField.CI_USER, List.of(user)), Map.entry(VmField.CI_PASSWORD, List.of(password)),
                Map.entry(VmField.SSH_KEYS, List.of(password, sshKeys)), Map.entry(VmField.IP, List.of(staticIp, ip)),
                Map.entry(VmField.GATEWAY, List.of(gateway)), Map.entry(VmField.DNS, List.of(dns)));
        by.forEach((f, props) -> props.forEach(p -> p.addListener(o -> edited(f))));
        variables.addListener((Observable o) -> edited(VmField.OTHER));
        gpu.addListener(o -> edited(VmField.GPU));
        linked.addListener(o -> keepLinkedStorage());
        for (Observable o : List.of(cloneSource, linked)) {
            o.addListener(x -> edited(VmField.SOURCE));
        }
        for (Observable o : List.of(template, choices, connection, node)) {
            o.addListener(x -> recheck());
        }
    }

    /** Whether the page may be left with Next. */
    boolean pageValid(Step p) {
        switch (p) {
            case TARGET:
                return target().isPresent() && choices.get() != null;
            case TEMPLATE:
                return template.get() != null && errors.keySet().stream().noneMatch(f -> pageOf(f) == p);
            case SUMMARY:
                return errors.isEmpty();
            default:
                return errors.keySet().stream().noneMatch(f -> pageOf(f) == p);
        }
    }

    /** The first page with an error (where the wizard takes the user after a refusal). */
    Optional<Step> firstPageWithError() {
        List<Step> pages = new ArrayList<>();
        errors.keySet().forEach(f -> pages.add(pageOf(f)));
        return pages.stream().min(Enum::compareTo);
    }

    static Set<Step> pagesWithFields() {
        return Set.copyOf(PAGE_OF.values());
    }
}
