package io.gpuforge.ui.connections;

import io.gpuforge.app.connections.ConnectionDraft;
import io.gpuforge.app.backends.ConnectionTester;
import io.gpuforge.app.backends.ConnectionTester.Field;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.I18n;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.StringProperty;

/**
 * The connection form (add, or edit a saved one): its fields ({@link ConnectionForm}), what is wrong with each as
 * you type and after a test, "Test connection" in the background (versions, nodes, missing privileges, the
 * certificate to accept), and saving in the background. FX thread.
 */
public final class AddConnectionViewModel {

    public enum Kind { SSH, LIBVIRT, PROXMOX, DEMO }

    private final ConnectionForm form;
    private final FormVisibility shows;
    private final ConnectionsService connections;
    private final ConnectionTester tester;
    private final HostKeyPrompt hostKeys;
    private final BackgroundTasks tasks;
    private final I18n i18n;
    private final ReadOnlyStringWrapper testResult = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper testing = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper testPassed = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper fingerprint = new ReadOnlyStringWrapper();
    private final BooleanProperty trustFingerprint = new SimpleBooleanProperty();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper saving = new ReadOnlyBooleanWrapper();

    /** A form for a new connection. */
    public AddConnectionViewModel(ConnectionsService connections, ConnectionTester tester, HostKeyPrompt hostKeys,
                                  BackgroundTasks tasks, I18n i18n) {
        this(connections, tester, hostKeys, tasks, i18n, Optional.empty());
    }

    /** A form for a new connection, or for changing {@code editing}. */
    public AddConnectionViewModel(ConnectionsService connections, ConnectionTester tester, HostKeyPrompt hostKeys,
                                  BackgroundTasks tasks, I18n i18n, Optional<ConnectionInfo> editing) {
        this.form = new ConnectionForm(editing);
        this.shows = new FormVisibility(form);
        this.connections = connections;
        this.tester = tester;
        this.hostKeys = hostKeys;
        this.tasks = tasks;
        this.i18n = i18n;
        editing.ifPresent(c -> {
            form.fill(c);
            c.tlsFingerprint().ifPresent(fp -> {
                fingerprint.set(fp);
                trustFingerprint.set(true);
            });
        });
        // a certificate accepted for one address is not accepted for another
        form.pveUrl.addListener((o, a, b) -> {
            if (editing.map(c -> !c.address().equals(b.strip())).orElse(true)) {
                fingerprint.set(null);
                trustFingerprint.set(false);
            }
        });
        form.kind.addListener((o, a, b) -> {
            testResult.set(null);
            testPassed.set(false);
        });
    }

    public boolean editing() {
        return form.editing();
    }

    // ---- fields ----

    public ObjectProperty<Kind> kindProperty() {
        return form.kind;
    }

    public StringProperty nameProperty() {
        return form.name;
    }

    public StringProperty targetProperty() {
        return form.target;
    }

    public ObjectProperty<ConnectionForm.SshAuth> sshAuthProperty() {
        return form.sshAuth;
    }

    public StringProperty identityFileProperty() {
        return form.identityFile;
    }

    public StringProperty passwordProperty() {
        return form.password;
    }

    public BooleanProperty sudoProperty() {
        return form.sudo;
    }

    public StringProperty passphraseProperty() {
        return form.passphrase;
    }

    public BooleanProperty keepPassphraseProperty() {
        return form.keepPassphrase;
    }

    /** The key file turned out to be encrypted: the passphrase field is shown. */
    public ReadOnlyBooleanProperty asksPassphraseProperty() {
        return form.asksPassphrase;
    }

    public StringProperty uriProperty() {
        return form.uri;
    }

    public StringProperty pveUrlProperty() {
        return form.pveUrl;
    }

    public ObjectProperty<ConnectionForm.PveAuth> pveAuthProperty() {
        return form.pveAuth;
    }

    public StringProperty tokenIdProperty() {
        return form.tokenId;
    }

    public StringProperty tokenSecretProperty() {
        return form.tokenSecret;
    }

    public StringProperty pveUserProperty() {
        return form.pveUser;
    }

    public StringProperty realmProperty() {
        return form.realm;
    }

    public StringProperty pvePasswordProperty() {
        return form.pvePassword;
    }

    public StringProperty oneTimeCodeProperty() {
        return form.oneTimeCode;
    }

    /** The account asked for a second factor: the one-time code field is shown. */
    public ReadOnlyBooleanProperty asksOneTimeCodeProperty() {
        return form.asksOneTimeCode;
    }

    /** The certificate fingerprint a test found untrusted by the system (or the one accepted before). */
    public ReadOnlyStringProperty fingerprintProperty() {
        return fingerprint.getReadOnlyProperty();
    }

    public BooleanProperty trustFingerprintProperty() {
        return trustFingerprint;
    }

    /** The outcome of "Test connection", worded; null before the first test. */
    public ReadOnlyStringProperty testResultProperty() {
        return testResult.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty testingProperty() {
        return testing.getReadOnlyProperty();
    }

    /** The last test connected (it may still report missing privileges). */
    public ReadOnlyBooleanProperty testPassedProperty() {
        return testPassed.getReadOnlyProperty();
    }

    /** Why the last save failed; null otherwise. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty savingProperty() {
        return saving.getReadOnlyProperty();
    }

    // ---- what the form shows ----

    /** Which parts of the form show now. */
    FormVisibility shows() {
        return shows;
    }

    /** Every kind can be tested. */
    public BooleanBinding canTest() {
        return form.kind.isNotNull().and(testing.not());
    }

    /** The bundle key of the kind's label in the chooser. */
    public static String kindKey(Kind k) {
        return "connection.add.kind." + k.name().toLowerCase(Locale.ROOT);
    }

    // ---- problems ----

    /** What is wrong with a field now (as typed, or as the last test found), worded; null when nothing is. */
    public String problem(Field f) {
        String found = form.found().get(f);
        if (found != null) {
            return found;
        }
        String key = form.typingProblems().get(f);
        return key == null ? null : i18n.get(key);
    }

    public String nameProblem() {
        String key = ConnectionForm.nameProblem(form.name.get());
        return key == null ? null : i18n.get(key);
    }

    /** The same as {@link #problem}, following the fields (for a label under the form). */
    public StringBinding problemBinding(Field f) {
        return Bindings.createStringBinding(() -> problem(f), dependencies());
    }

    private Observable[] dependencies() {
        return new Observable[] {form.kind, form.name, form.target, form.sshAuth, form.identityFile, form.password,
            form.passphrase, form.asksPassphrase, form.uri, form.pveUrl, form.pveAuth, form.tokenId, form.tokenSecret,
            form.pveUser, form.realm, form.pvePassword, form.oneTimeCode, form.asksOneTimeCode, form.found(),
            i18n.localeProperty()};
    }

    /** The form can be saved: a name, and nothing wrong with the fields of its kind. */
    public BooleanBinding validProperty() {
        return Bindings.createBooleanBinding(() -> nameProblem() == null && form.typingProblems().isEmpty()
                && !saving.get(), concat(dependencies(), saving));
    }

    private static Observable[] concat(Observable[] a, Observable b) {
        Observable[] out = Arrays.copyOf(a, a.length + 1);
        out[a.length] = b;
        return out;
    }

    // ---- test ----

    /** Tests what the form says, in the background; the outcome lands in the properties above. */
    public void testConnection() {
        Kind k = form.kind.get();
        testing.set(true);
        testPassed.set(false);
        testResult.set(i18n.get("console.test.running"));
        FormTest.Input in = testInput();
        Optional<ConnectionInfo> edited = form.edited();
        tasks.supply(i18n.get("task.testConnection", in.label()),
                () -> FormTest.run(k, in, edited, connections, tester, hostKeys))
                .onSuccess(this::tested)
                .onError(e -> testResult.set(e.getMessage()))
                .andFinally(() -> testing.set(false))
                .start();
    }

    private FormTest.Input testInput() {
        Optional<String> pin = trustFingerprint.get() ? Optional.ofNullable(fingerprint.get()) : Optional.empty();
        Optional<String> code = form.asksOneTimeCode.get() ? Optional.of(form.oneTimeCode.get().strip()) : Optional.empty();
        String label = switch (form.kind.get()) {
            case PROXMOX -> form.pveUrl.get().strip();
            case LIBVIRT -> form.uri.get().strip();
            case SSH -> form.target.get().strip();
            case DEMO -> i18n.get("connection.kind.demo");
        };
        Optional<char[]> pw = form.sshAuth.get() == ConnectionForm.SshAuth.PASSWORD && !form.password.get().isEmpty()
                ? Optional.of(form.password.get().toCharArray()) : Optional.empty();
        Optional<char[]> pass = form.passphrase.get().isEmpty() ? Optional.empty()
                : Optional.of(form.passphrase.get().toCharArray());
        return new FormTest.Input(label, form.pveUrl.get(), form.pveLogin(), form.pveSecret().toCharArray(), pin, code,
                form.uri.get(), form.target.get(), pw, sshOptions(), pass);
    }

    private void tested(ConnectionTester.Report r) {
        testPassed.set(r.ok());
        r.untrustedFingerprint().ifPresent(fp -> {
            fingerprint.set(fp);
            trustFingerprint.set(false);
        });
        r.field().ifPresent(f -> {
            if (f == Field.ONE_TIME_CODE) {
                form.asksOneTimeCode.set(true);
            }
            if (f == Field.PASSPHRASE) {
                form.asksPassphrase.set(true);
            }
            if (f != Field.URL || r.untrustedFingerprint().isEmpty()) {
                form.found().put(f, r.message());
            }
        });
        testResult.set(TestReportText.of(r, i18n));
    }

    private ConnectionOptions sshOptions() {
        if (form.kind.get() != Kind.SSH) {
            return ConnectionOptions.none();
        }
        boolean key = form.sshAuth.get() == ConnectionForm.SshAuth.KEY_FILE;
        return ConnectionOptions.ssh(form.sshAuth.get() == ConnectionForm.SshAuth.AGENT,
                key ? Optional.of(form.identityFile.get().strip()) : Optional.empty(), form.sudo.get());
    }

    // ---- save ----

    /** Saves (adds, or changes the edited connection); {@code done} gets it on the FX thread, errors land in {@link #errorProperty()}. */
    public void save(Consumer<ConnectionInfo> done) {
        Kind k = form.kind.get();
        String n = form.name.get().strip();
        ConnectionOptions options = sshOptions();
        Optional<String> pin = trustFingerprint.get() ? Optional.ofNullable(fingerprint.get()) : Optional.empty();
        String secretText = switch (k) {
            case PROXMOX -> form.pveSecret();
            case SSH -> form.sshAuth.get() == ConnectionForm.SshAuth.PASSWORD ? form.password.get() : "";
            default -> "";
        };
        Optional<char[]> secret = secretText.isEmpty() ? Optional.empty() : Optional.of(secretText.toCharArray());
        Optional<char[]> keep = form.keepPassphrase.get() && !form.passphrase.get().isEmpty()
                ? Optional.of(form.passphrase.get().toCharArray()) : Optional.empty();
        form.password.set("");
        form.tokenSecret.set("");
        form.pvePassword.set("");
        form.passphrase.set("");
        ConnectionDraft draft;
        try {
            draft = switch (k) {
                case DEMO -> ConnectionDraft.demo(n);
                case LIBVIRT -> ConnectionDraft.libvirt(n, form.uri.get());
                case PROXMOX -> ConnectionDraft.proxmox(n, form.pveUrl.get(), form.pveLogin(), pin);
                case SSH -> ConnectionDraft.ssh(n, form.target.get());
            };
        } catch (IllegalArgumentException e) {
            error.set(e.getMessage());
            return;
        }
        saving.set(true);
        Optional<ConnectionInfo> editing = form.edited();
        tasks.supply(i18n.get("task.saveConnection", n), () -> {
            ConnectionInfo saved = editing.isPresent()
                    ? connections.edit(editing.get().id(), draft, secret, options)
                    : connections.add(draft, secret, options);
            if (keep.isPresent()) {
                saved = connections.keepPassphrase(saved.id(), keep.get());
            }
            return saved;
        })
                .onSuccess(c -> {
                    error.set(null);
                    done.accept(c);
                })
                .onError(e -> error.set(e.getMessage()))
                .andFinally(() -> saving.set(false))
                .start();
    }
}
