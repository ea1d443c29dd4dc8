package io.gpuforge.ui.connections;

import io.gpuforge.app.ConnectionsService;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.ui.common.BackgroundTasks;
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

    public enum Kind { SSH, LIBVIRT, DEMO }

    private final javafx.beans.property.ObjectProperty<Kind> kind = new javafx.beans.property.SimpleObjectProperty<>(Kind.SSH);
    private final StringProperty uri = new SimpleStringProperty("qemu:///system");
    private final ReadOnlyStringWrapper testResult = new ReadOnlyStringWrapper();
    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty target = new SimpleStringProperty("");
    private final StringProperty password = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private final ConnectionsService connections;
    private final BackgroundTasks tasks;
    private final io.gpuforge.app.LibvirtService libvirt;

    public AddConnectionViewModel(ConnectionsService connections, io.gpuforge.app.LibvirtService libvirt,
                                  BackgroundTasks tasks) {
        this.connections = connections;
        this.libvirt = libvirt;
        this.tasks = tasks;
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
        String u = uri.get().strip();
        testResult.set("…");
        tasks.supply("test " + u, () -> libvirt.test(u))
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

    public BooleanBinding validProperty() {
        return Bindings.createBooleanBinding(() -> !name.get().isBlank()
                && (kind.get() == Kind.DEMO || (kind.get() == Kind.SSH ? validTarget(target.get()) : validUri(uri.get()))),
                name, target, uri, kind);
    }

    /** Saves; {@code done} gets the new connection on the UI thread, errors land in {@link #errorProperty()}. */
    public void save(Consumer<ConnectionInfo> done) {
        char[] pw = password.get().toCharArray();
        password.set("");
        String n = name.get().strip();
        String t = target.get().strip();
        String u = uri.get().strip();
        Kind k = kind.get();
        tasks.supply("save connection", () -> k == Kind.DEMO ? connections.addDemo(n) : k == Kind.LIBVIRT
                ? connections.addLibvirt(n, u) : connections.addSsh(n, t, pw.length == 0 ? Optional.empty() : Optional.of(pw)))
                .onSuccess(c -> {
                    error.set(null);
                    done.accept(c);
                })
                .onError(e -> error.set(e.getMessage()))
                .start();
    }
}
