package io.gpuforge.ui.common;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;
import javafx.beans.value.ObservableValue;
import javafx.scene.control.Button;
import javafx.scene.control.Tab;
import javafx.stage.Window;

/**
 * A feature's part of a VM's page: buttons in its action bar (the passthrough wizard's "Add or remove a GPU…")
 * and tabs (the GPU monitor's "GPU" charts). Asked each time a VM page is built; what it returns belongs to that
 * page: a tab whose content is {@link Disposable} is disposed when the page closes. Register with
 * {@link PageExtensions#addVm}.
 */
public interface VmPageExtension {

    /**
     * The VM the page shows: its connection, reference, what the inventory says of it (changes as the VM does;
     * null while unknown) and the window to own dialogs.
     */
    record Context(UiContext ui, ConnectionInfo connection, VmRef vm, ObservableValue<VmInfo> info, Window owner) {
    }

    /** Buttons for the VM's action bar; none by default. */
    default List<Button> actions(Context vm) {
        return List.of();
    }

    /** Tabs for the VM's page, after its own; none by default. */
    default List<Tab> tabs(Context vm) {
        return List.of();
    }
}
