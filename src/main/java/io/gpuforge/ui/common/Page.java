package io.gpuforge.ui.common;

import java.util.function.Supplier;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;

/**
 * What the content area shows for a tree item: the tab's key (items that share a key share a tab), its title and
 * icon, and how to build its content. Content that is {@link Disposable} is disposed when its tab closes.
 */
public record Page(String key, ObservableValue<String> title, Node graphic, Supplier<Node> content) {
}
