package io.gpuforge.ui.connections;

import io.gpuforge.app.backends.ConnectionTester.Field;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.collections.ObservableMap;

/**
 * The fields of the connection form and what is wrong with each, as you type (a bundle key, or null when it is
 * fine), plus the problems "Test connection" found on a field, which go away as soon as that field changes. No
 * JavaFX nodes: the dialog binds its controls to these properties and shows {@link #problem} on each. In edit mode
 * a secret field left empty keeps the stored secret.
 */
public final class ConnectionForm {

    static final Pattern TARGET = Pattern.compile("^(?:[^@\\s]+@)?(?:\\[[0-9a-fA-F:.]+\\]|[^:@\\s\\[\\]]+)(?::\\d{1,5})?$");
    static final Pattern PVE_URL = Pattern.compile("https://[^/\\s:]+(?::\\d{1,5})?/?");
    static final Pattern TOKEN_ID = Pattern.compile("[^@!\\s]+@[^@!\\s]+![A-Za-z][A-Za-z0-9._-]*");
    static final Pattern PVE_USER = Pattern.compile("[^@!\\s:]+");
    static final Pattern REALM = Pattern.compile("[A-Za-z][A-Za-z0-9._-]*");
    static final Pattern CODE = Pattern.compile("\\d{6,8}");
    static final int MAX_NAME = 200;

    /** How an SSH host is logged in to. */
    public enum SshAuth { AGENT, KEY_FILE, PASSWORD }

    /** How a Proxmox VE cluster is logged in to. */
    public enum PveAuth { TOKEN, PASSWORD }

    final ObjectProperty<AddConnectionViewModel.Kind> kind = new SimpleObjectProperty<>(AddConnectionViewModel.Kind.SSH);
    final StringProperty name = new SimpleStringProperty("");
    final StringProperty target = new SimpleStringProperty("");
    final ObjectProperty<SshAuth> sshAuth = new SimpleObjectProperty<>(SshAuth.AGENT);
    final StringProperty identityFile = new SimpleStringProperty("");
    final StringProperty password = new SimpleStringProperty("");
    final BooleanProperty sudo = new SimpleBooleanProperty();
    final StringProperty passphrase = new SimpleStringProperty("");
    final BooleanProperty keepPassphrase = new SimpleBooleanProperty(true);
    final BooleanProperty asksPassphrase = new SimpleBooleanProperty();
    final StringProperty uri = new SimpleStringProperty("qemu:///system");
    final StringProperty pveUrl = new SimpleStringProperty("https://");
    final ObjectProperty<PveAuth> pveAuth = new SimpleObjectProperty<>(PveAuth.TOKEN);
    final StringProperty tokenId = new SimpleStringProperty("root@pam!gpuforge");
    final StringProperty tokenSecret = new SimpleStringProperty("");
    final StringProperty pveUser = new SimpleStringProperty("root");
    final StringProperty realm = new SimpleStringProperty("pam");
    final StringProperty pvePassword = new SimpleStringProperty("");
    final StringProperty oneTimeCode = new SimpleStringProperty("");
    final BooleanProperty asksOneTimeCode = new SimpleBooleanProperty();
    private final ObservableMap<Field, String> found = FXCollections.observableMap(new EnumMap<>(Field.class));
    private final Optional<ConnectionInfo> editing;

    ConnectionForm(Optional<ConnectionInfo> editing) {
        this.editing = editing;
        for (Field f : Field.values()) {
            property(f).addListener((o, a, b) -> found.remove(f));
        }
    }

    boolean editing() {
        return editing.isPresent();
    }

    Optional<ConnectionInfo> edited() {
        return editing;
    }

    /** The property a tester's field stands for. */
    ObservableValue<?> property(Field f) {
        switch (f) {
            case URL:
                return pveUrl;
            case TOKEN_ID:
                return tokenId;
            case TOKEN_SECRET:
                return tokenSecret;
            case USER:
                return pveUser;
            case PASSWORD:
                return kind.get() == AddConnectionViewModel.Kind.SSH ? password : pvePassword;
            case ONE_TIME_CODE:
                return oneTimeCode;
            case URI:
                return uri;
            case IDENTITY_FILE:
                return identityFile;
            case PASSPHRASE:
                return passphrase;
            default:
                return target;
        }
    }

    /** What "Test connection" found wrong, per field (already worded); cleared when the field changes. */
    ObservableMap<Field, String> found() {
        return found;
    }

    // ---- what is wrong with each field, as a bundle key (null: fine) ----

    static String nameProblem(String n) {
        String s = n == null ? "" : n.strip();
        if (s.isEmpty()) {
            return "connection.add.nameRequired";
        }
        return s.length() > MAX_NAME || s.chars().anyMatch(Character::isISOControl) ? "console.form.nameTooLong" : null;
    }

    static String targetProblem(String t) {
        return t != null && TARGET.matcher(t.strip()).matches() ? null : "connection.add.targetInvalid";
    }

    static String identityProblem(SshAuth auth, String file) {
        if (auth != SshAuth.KEY_FILE) {
            return null;
        }
        if (file == null || file.isBlank()) {
            return "console.form.identityRequired";
        }
        Path p = Path.of(file.strip());
        return Files.isRegularFile(p) ? null : "console.form.identityMissing";
    }

    static String uriProblem(String u) {
        return u != null && u.strip().matches("[a-z0-9+]+://.*") ? null : "console.form.uriInvalid";
    }

    static String urlProblem(String u) {
        return u != null && PVE_URL.matcher(u.strip()).matches() ? null : "console.form.urlInvalid";
    }

    static String tokenIdProblem(String t) {
        return t != null && TOKEN_ID.matcher(t.strip()).matches() ? null : "console.form.tokenIdInvalid";
    }

    /** A secret is needed when adding; when editing, empty keeps the stored one. */
    static String secretProblem(String s, boolean editing, String key) {
        return (s == null || s.isEmpty()) && !editing ? key : null;
    }

    static String userProblem(String u) {
        return u != null && PVE_USER.matcher(u.strip()).matches() ? null : "console.form.userInvalid";
    }

    static String realmProblem(String r) {
        return r != null && REALM.matcher(r.strip()).matches() ? null : "console.form.realmInvalid";
    }

    static String codeProblem(boolean asked, String c) {
        return !asked || c != null && CODE.matcher(c.strip()).matches() ? null : "console.form.codeInvalid";
    }

    /** The problem of a field as you type, as a bundle key, or null; fields of other kinds have none. */
    Map<Field, String> typingProblems() {
        Map<Field, String> out = new EnumMap<>(Field.class);
        switch (kind.get()) {
            case SSH:
                put(out, Field.TARGET, targetProblem(target.get()));
                put(out, Field.IDENTITY_FILE, identityProblem(sshAuth.get(), identityFile.get()));
                break;
            case LIBVIRT:
                put(out, Field.URI, uriProblem(uri.get()));
                break;
            case PROXMOX:
                put(out, Field.URL, urlProblem(pveUrl.get()));
                if (pveAuth.get() == PveAuth.TOKEN) {
                    put(out, Field.TOKEN_ID, tokenIdProblem(tokenId.get()));
                    put(out, Field.TOKEN_SECRET, secretProblem(tokenSecret.get(), editingSameAuth(),
                            "console.form.secretRequired"));
                } else {
                    put(out, Field.USER, userProblem(pveUser.get()) != null ? userProblem(pveUser.get())
                            : realmProblem(realm.get()));
                    put(out, Field.PASSWORD, secretProblem(pvePassword.get(), editingSameAuth(),
                            "console.form.passwordRequired"));
                    put(out, Field.ONE_TIME_CODE, codeProblem(asksOneTimeCode.get(), oneTimeCode.get()));
                }
                break;
            default:
                break;
        }
        return out;
    }

    /** Editing a Proxmox connection that keeps the same way of logging in: its stored secret can stay. */
    private boolean editingSameAuth() {
        return editing.map(c -> c.passwordLogin() == (pveAuth.get() == PveAuth.PASSWORD)).orElse(false);
    }

    private static void put(Map<Field, String> m, Field f, String problem) {
        if (problem != null) {
            m.put(f, problem);
        }
    }

    /** The Proxmox VE login as typed: the token id, or {@code user@realm}. */
    String pveLogin() {
        return pveAuth.get() == PveAuth.TOKEN ? tokenId.get().strip() : pveUser.get().strip() + "@" + realm.get().strip();
    }

    /** The Proxmox VE secret as typed (token secret or password); empty when left empty. */
    String pveSecret() {
        return pveAuth.get() == PveAuth.TOKEN ? tokenSecret.get() : pvePassword.get();
    }

    /** Fills the form from a saved connection (edit mode); secrets stay empty (empty keeps them). */
    void fill(ConnectionInfo c) {
        name.set(c.name());
        switch (c.kind()) {
            case SSH:
                kind.set(AddConnectionViewModel.Kind.SSH);
                target.set(c.username() + "@" + c.address());
                identityFile.set(c.options().identityFile().orElse(""));
                sshAuth.set(c.options().identityFile().isPresent() ? SshAuth.KEY_FILE
                        : c.secretRef().isPresent() ? SshAuth.PASSWORD : SshAuth.AGENT);
                sudo.set(c.options().sudo());
                break;
            case LIBVIRT:
                kind.set(AddConnectionViewModel.Kind.LIBVIRT);
                uri.set(c.address());
                break;
            case PROXMOX:
                kind.set(AddConnectionViewModel.Kind.PROXMOX);
                pveUrl.set(c.address());
                if (c.passwordLogin()) {
                    pveAuth.set(PveAuth.PASSWORD);
                    int at = c.username().lastIndexOf('@');
                    pveUser.set(at < 0 ? c.username() : c.username().substring(0, at));
                    realm.set(at < 0 ? "pam" : c.username().substring(at + 1));
                } else {
                    pveAuth.set(PveAuth.TOKEN);
                    tokenId.set(c.username());
                }
                break;
            default:
                kind.set(AddConnectionViewModel.Kind.DEMO);
                break;
        }
    }
}
