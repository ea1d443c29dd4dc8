package io.gpuforge.ui.shell;

import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.monitor.NoData;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.ui.common.NavItem;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.util.Duration;

/**
 * Which GPUs of the tree have no readings while the monitor watches them, by the tree item's id: the tree says "no
 * data since 10:42:07" on their rows and the source's error on hover, instead of nothing. It only listens (the fleet is
 * not started for it) and looks at most once a second, a second after the first change it hears of (so the last
 * change is never missed); the tree hears of it only when the set of GPUs without data changes.
 */
final class TreeGpuReadings implements AutoCloseable {

    private final GpuFleet fleet;
    private final Consumer<Map<String, NoData>> changed;
    private final GpuFleet.Subscription subscription;
    private final AtomicBoolean dirty = new AtomicBoolean();
    private final PauseTransition wait = new PauseTransition(Duration.seconds(1));
    private Map<String, NoData> shown = Map.of();

    /** @param changed told on the FX thread with the GPUs without data, by tree item id */
    TreeGpuReadings(GpuFleet fleet, Consumer<Map<String, NoData>> changed) {
        this.fleet = fleet;
        this.changed = changed;
        wait.setOnFinished(e -> look());
        this.subscription = fleet.observe(() -> {
            if (dirty.compareAndSet(false, true)) {
                Platform.runLater(wait::playFromStart);
            }
        });
    }

    /** A GPU's row in the tree, below its node: as {@code TreeContent} names it. */
    static Optional<String> itemId(FleetGpu g) {
        return g.connectionInfo().flatMap(c -> g.address().map(a -> NavItem.gpuId(c, g.host(), a)));
    }

    /** On the FX thread: a few map lookups per GPU. */
    private void look() {
        dirty.set(false);
        Map<String, NoData> lost = new HashMap<>();
        if (fleet.watching()) {
            for (FleetGpu g : fleet.gpus()) {
                itemId(g).ifPresent(id -> NoData.of(fleet, g).ifPresent(n -> lost.put(id, n)));
            }
        }
        if (!lost.equals(shown)) {
            shown = Map.copyOf(lost);
            changed.accept(shown);
        }
    }

    @Override
    public void close() {
        subscription.close();
        wait.stop();
    }
}
