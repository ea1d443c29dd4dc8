package io.gpuforge.ui.connections;

import io.gpuforge.app.ConnectionsService;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.I18n;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** The "add SSH host" form: fields, their validity, and saving in the background. */
public final class AddConnectionViewModel {

    static final Pattern TARGET = Pattern.compile("^(?:[^@\\s]+@)?(?:\\[[0-9a-fA-F:.]+\\]|[^:@\\s\\[\\]]+)(?::\\d{1,5})?$");

    public enum Kind { SSH, LIBVIRT, PROXMOX, DEMO }

    private final javafx.beans.property.ObjectProperty<Kind> kind = new javafx.beans.property.SimpleObjectProperty<>(Kind.SSH);
    private final StringProperty uri = new SimpleStringProperty("qemu:///system");
    private final ReadOnlyStringWrapper testResult = new ReadOnlyStringWrapper();
    private final StringProperty pveUrl = new SimpleStringProperty("https://");
    private final StringProperty tokenId = new SimpleStringProperty("root@pam!gpuforge");
    private final StringProperty tokenSecret = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper fingerprint = new ReadOnlyStringWrapper();
    private final javafx.beans.property.BooleanProperty trustFingerprint = new javafx.beans.property.SimpleBooleanProperty();
    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty target = new SimpleStringProperty("");
    private final StringProperty password = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private final ConnectionsService connections;
    private final BackgroundTasks tasks;
    private final I18n i18n;
    private final io.gpuforge.app.LibvirtService libvirt;
    private final io.gpuforge.app.ProxmoxService proxmox;

    public AddConnectionViewModel(ConnectionsService connections, io.gpuforge.app.LibvirtService libvirt,
                                  io.gpuforge.app.ProxmoxService proxmox, BackgroundTasks tasks, I18n i18n) {
        this.i18n = i18n;
        this.connections = connections;
        this.libvirt = libvirt;
        this.proxmox = proxmox;
        this.tasks = tasks;
    }

    public StringProperty pveUrlProperty() {
        return pveUrl;
    }

    public StringProperty tokenIdProperty() {
        return tokenId;
    }

    public StringProperty tokenSecretProperty() {
        return tokenSecret;
    }

    /** The certificate fingerprint a test found untrusted by the system; the user may accept it. */
    public ReadOnlyStringProperty fingerprintProperty() {
        return fingerprint.getReadOnlyProperty();
    }

    public javafx.beans.property.BooleanProperty trustFingerprintProperty() {
        return trustFingerprint;
    }

    public javafx.beans.property.ObjectProperty<Kind> kindProperty() {
        return kind;
    }

    public StringProperty uriProperty() {
        return uri;
    }

    /** The outcome of "test connection": libvirt and hypervisor versions, or the error. */
    public ReadOnlyStringProperty testResultProperty() {
        return testResult.getReadOnlyProperty();
    }

    public static boolean validUri(String u) {
        return u != null && u.strip().matches("[a-z0-9+]+://.*");
    }

    public void testConnection() {
        if (kind.get() == Kind.PROXMOX) {
            String url = pveUrl.get().strip();
            String id = tokenId.get().strip();
            char[] secret = tokenSecret.get().toCharArray();
            java.util.Optional<String> pin = trustFingerprint.get() && fingerprint.get() != null
                    ? java.util.Optional.of(fingerprint.get()) : java.util.Optional.empty();
            testResult.set("…");
            tasks.supply(i18n.get("task.testConnection", url), () -> proxmox.test(url, id, secret, pin))
                    .onSuccess(r -> {
                        testResult.set(r.message());
                        r.untrustedFingerprint().ifPresent(fingerprint::set);
                    })
                    .onError(e -> testResult.set(e.getMessage()))
                    .start();
            return;
        }
        String u = uri.get().strip();
        testResult.set("…");
        tasks.supply(i18n.get("task.testConnection", u), () -> libvirt.test(u))
                .onSuccess(testResult::set)
                .onError(e -> testResult.set(e.getMessage()))
                .start();
    }

    public StringProperty nameProperty() {
        return name;
    }

    public StringProperty targetProperty() {
        return target;
    }

    public StringProperty passwordProperty() {
        return password;
    }

    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    public static boolean validTarget(String t) {
        return t != null && TARGET.matcher(t.strip()).matches();
    }

    /** Which fields the form shows: those of the chosen kind. */
    public BooleanBinding showsSshFields() {
        return kind.isEqualTo(Kind.SSH);
    }

    public BooleanBinding showsLibvirtFields() {
        return kind.isEqualTo(Kind.LIBVIRT);
    }

    public BooleanBinding showsProxmoxFields() {
        return kind.isEqualTo(Kind.PROXMOX);
    }

    public BooleanBinding showsDemoNote() {
        return kind.isEqualTo(Kind.DEMO);
    }

    /** "Test connection" is offered for the kinds that have something to test before saving. */
    public BooleanBinding canTest() {
        return showsLibvirtFields().or(showsProxmoxFields());
    }

    /** The bundle key of the kind's label in the chooser. */
    public static String kindKey(Kind k) {
        return "connection.add.kind." + k.name().toLowerCase(java.util.Locale.ROOT);
    }

    public BooleanBinding validProperty() {
        return Bindings.createBooleanBinding(() -> !name.get().isBlank() && switch (kind.get()) {
            case DEMO -> true;
            case SSH -> validTarget(target.get());
            case LIBVIRT -> validUri(uri.get());
            case PROXMOX -> pveUrl.get().strip().matches("https://[^/\\s]+.*") && !tokenSecret.get().isEmpty()
                    && tokenId.get().matches("[^@!\\s]+@[^@!\\s]+![A-Za-z][A-Za-z0-9._-]*");
        }, name, target, uri, kind, pveUrl, tokenId, tokenSecret);
    }

    /** Saves; {@code done} gets the new connection on the UI thread, errors land in {@link #errorProperty()}. */
    public void save(Consumer<ConnectionInfo> done) {
        char[] pw = password.get().toCharArray();
        password.set("");
        String n = name.get().strip();
        String t = target.get().strip();
        String u = uri.get().strip();
        Kind k = kind.get();
        String url = pveUrl.get().strip();
        String id = tokenId.get().strip();
        char[] secret = tokenSecret.get().toCharArray();
        tokenSecret.set("");
        Optional<String> pin = trustFingerprint.get() ? Optional.ofNullable(fingerprint.get()) : Optional.empty();
        tasks.supply(i18n.get("task.saveConnection", n), () -> switch (k) {
            case DEMO -> connections.addDemo(n);
            case LIBVIRT -> connections.addLibvirt(n, u);
            case PROXMOX -> connections.addProxmox(n, url, id, secret, pin);
            case SSH -> connections.addSsh(n, t, pw.length == 0 ? Optional.empty() : Optional.of(pw));
        })
                .onSuccess(c -> {
                    error.set(null);
                    done.accept(c);
                })
                .onError(e -> error.set(e.getMessage()))
                .start();
    }
}
