package io.gpuforge.ui.monitor;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.UiContext;
import java.util.function.Predicate;
import javafx.scene.control.Tab;
import javafx.scene.layout.StackPane;
import org.kordamp.ikonli.feather.Feather;

/**
 * The "GPU" tab of a GPU's, a VM's or a node's page: the monitor's charts for those GPUs, live while the tab is
 * selected in a showing window. The tab's content is {@link Disposable}: the page disposes it with its other
 * content (and closing the tab disposes it too), which stops its watch.
 */
public final class GpuTabs {

    private GpuTabs() {
    }

    /** One GPU: the connection, its node and the GPU's PCI address ({@code 0000:01:00.0}). */
    public static Tab forGpu(UiContext ui, MonitorServices services, ConnectionInfo c, String node,
                             String address) {
        return tab(ui, services, "gpu-tab-" + c.id() + "-" + node + "-" + address, g -> sameConnection(g, c)
                && g.host().equals(node) && g.address().map(a -> a.equalsIgnoreCase(address)).orElse(false));
    }

    /** The GPUs passed through to a VM. */
    public static Tab forVm(UiContext ui, MonitorServices services, ConnectionInfo c, VmRef vm) {
        return tab(ui, services, "gpu-tab-" + c.id() + "-vm-" + vm.node() + "-" + vm.id(), g -> sameConnection(g, c)
                && g.vmRef().map(vm::equals).orElse(false));
    }

    /** The GPUs of a node. */
    public static Tab forNode(UiContext ui, MonitorServices services, ConnectionInfo c, String node) {
        return tab(ui, services, "gpu-tab-" + c.id() + "-node-" + node, g -> sameConnection(g, c) && g.host().equals(node));
    }

    private static boolean sameConnection(FleetGpu g, ConnectionInfo c) {
        return g.connectionInfo().map(x -> x.id() == c.id()).orElse(false);
    }

    private static Tab tab(UiContext ui, MonitorServices services, String id, Predicate<FleetGpu> which) {
        Tab t = new Tab();
        t.setId(id);
        t.textProperty().bind(ui.i18n().text("monitor.tab.gpu"));
        t.setGraphic(Icons.of(Feather.THERMOMETER));
        Holder holder = new Holder();
        GpuChartsView view = new GpuChartsView(ui, services, new Showing(holder, t.selectedProperty()).property(), which, false);
        holder.getChildren().add(view);
        holder.view = view;
        t.setContent(holder);
        t.setOnClosed(e -> holder.dispose());
        return t;
    }

    /** The tab's content: disposing it stops the charts' watch. */
    static final class Holder extends StackPane implements Disposable {
        private GpuChartsView view;
        private boolean disposed;

        GpuChartsView view() {
            return view;
        }

        @Override
        public void dispose() {
            if (!disposed) {
                disposed = true;
                view.dispose();
            }
        }
    }
}
