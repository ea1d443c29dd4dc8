package io.gpuforge.ui.common;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where features plug into the pages another package builds: VM pages ({@link VmPageExtension}) and node pages
 * ({@link NodePageExtension}). One instance per main window; register before pages are opened (pages opened
 * earlier keep what they had). FX thread.
 */
public final class PageExtensions {

    private final List<VmPageExtension> vm = new CopyOnWriteArrayList<>();
    private final List<NodePageExtension> node = new CopyOnWriteArrayList<>();

    public void addVm(VmPageExtension e) {
        vm.add(e);
    }

    public void addNode(NodePageExtension e) {
        node.add(e);
    }

    public List<VmPageExtension> vm() {
        return List.copyOf(vm);
    }

    public List<NodePageExtension> node() {
        return List.copyOf(node);
    }
}
