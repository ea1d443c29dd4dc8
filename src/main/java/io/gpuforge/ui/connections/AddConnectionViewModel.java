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

    private final StringProperty name = new SimpleStringProperty("");
    private final StringProperty target = new SimpleStringProperty("");
    private final StringProperty password = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper();
    private final ConnectionsService connections;
    private final BackgroundTasks tasks;

    public AddConnectionViewModel(ConnectionsService connections, BackgroundTasks tasks) {
        this.connections = connections;
        this.tasks = tasks;
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
        return Bindings.createBooleanBinding(() -> !name.get().isBlank() && validTarget(target.get()), name, target);
    }

    /** Saves; {@code done} gets the new connection on the UI thread, errors land in {@link #errorProperty()}. */
    public void save(Consumer<ConnectionInfo> done) {
        char[] pw = password.get().toCharArray();
        password.set("");
        String n = name.get().strip();
        String t = target.get().strip();
        tasks.supply("save connection", () -> connections.addSsh(n, t, pw.length == 0 ? Optional.empty() : Optional.of(pw)))
                .onSuccess(c -> {
                    error.set(null);
                    done.accept(c);
                })
                .onError(e -> error.set(e.getMessage()))
                .start();
    }
}
