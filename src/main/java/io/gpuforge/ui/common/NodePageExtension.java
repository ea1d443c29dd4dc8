package io.gpuforge.ui.common;

import io.gpuforge.domain.connections.ConnectionInfo;
import java.util.List;
import javafx.scene.control.Tab;
import javafx.stage.Window;

/**
 * A feature's tabs on a node's page (the GPU monitor's charts of the node's GPUs). Asked each time a node page is
 * built; a tab whose content is {@link Disposable} is disposed when the page closes. Register with
 * {@link PageExtensions#addNode}.
 */
public interface NodePageExtension {

    /** The node the page shows, on its connection, and the window to own dialogs. */
    record Context(UiContext ui, ConnectionInfo connection, String node, Window owner) {
    }

    List<Tab> tabs(Context node);
}
