package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.ui.common.UiContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.cell.CheckBoxListCell;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * Which GPUs the charts compare: every GPU of the fleet with a check box, at most {@link #MAX} at once (one colour
 * each). A GPU is known by its connection, host and address, which stay when its readings' id arrives.
 */
final class GpuPicker extends VBox {

    static final int MAX = 8;

    private final ObservableList<FleetGpu> items = FXCollections.observableArrayList();
    private final Map<String, BooleanProperty> checks = new LinkedHashMap<>();
    private final Set<String> chosen = new LinkedHashSet<>();
    private final Predicate<FleetGpu> initial;
    private final Runnable changed;
    private final Set<String> offered = new LinkedHashSet<>();
    private List<GpuId> lastIds = List.of();
    private boolean updating;

    GpuPicker(UiContext ui, Predicate<FleetGpu> initial, Runnable changed) {
        super(4);
        this.initial = initial;
        this.changed = changed;
        setPadding(new Insets(8));
        setPrefWidth(280);
        setMinWidth(280);
        Label title = new Label(ui.i18n().get("monitor.gpus"));
        title.getStyleClass().add("text-bold");
        ListView<FleetGpu> list = new ListView<>(items);
        list.setId("monitor-gpus");
        list.setCellFactory(CheckBoxListCell.forListView(this::check, new StringConverter<>() {
            @Override
            public String toString(FleetGpu g) {
                return g == null ? "" : MonitorText.gpu(g);
            }

            @Override
            public FleetGpu fromString(String s) {
                return null;
            }
        }));
        VBox.setVgrow(list, Priority.ALWAYS);
        getChildren().addAll(title, list);
    }

    static String key(FleetGpu g) {
        return g.connection() + "/" + g.host() + "/" + g.address().orElse(g.id().toString());
    }

    private BooleanProperty check(FleetGpu g) {
        return checks.computeIfAbsent(key(g), k -> {
            BooleanProperty p = new SimpleBooleanProperty(chosen.contains(k));
            p.addListener((o, was, now) -> {
                if (updating) {
                    return;
                }
                if (now && chosen.size() >= MAX) {
                    updating = true;
                    p.set(false);
                    updating = false;
                    return;
                }
                if (now) {
                    chosen.add(k);
                } else {
                    chosen.remove(k);
                }
                changed.run();
            });
            return p;
        });
    }

    /** New rows: listed, the first ones the initial choice accepts are chosen; true when the charts must reload. */
    boolean update(List<FleetGpu> rows) {
        items.setAll(rows);
        updating = true;
        for (FleetGpu g : rows) {
            String k = key(g);
            if (offered.add(k) && chosen.size() < MAX && initial.test(g)) {
                chosen.add(k);
            }
            check(g).set(chosen.contains(k));
        }
        updating = false;
        List<GpuId> ids = chosen(rows).stream().map(FleetGpu::id).toList();
        boolean reload = !ids.equals(lastIds);
        lastIds = ids;
        return reload;
    }

    /** The chosen GPUs, in the fleet's order. */
    List<FleetGpu> chosen(List<FleetGpu> rows) {
        List<FleetGpu> out = new ArrayList<>();
        for (FleetGpu g : rows) {
            if (chosen.contains(key(g)) && out.size() < MAX) {
                out.add(g);
            }
        }
        return out;
    }

    /** Chooses exactly these GPUs (tests, and "open its charts"). */
    void choose(Predicate<FleetGpu> which, List<FleetGpu> rows) {
        chosen.clear();
        for (FleetGpu g : rows) {
            // chosen by hand: the initial choice no longer adds these rows, even where the picker never listed them
            // (its charts were hidden while they arrived: the fleet tab's "open its charts")
            offered.add(key(g));
            if (which.test(g) && chosen.size() < MAX) {
                chosen.add(key(g));
            }
        }
        update(rows);
        changed.run();
    }

    void dispose() {
        checks.clear();
    }
}
