package io.gpuforge.ui.shell;

import io.gpuforge.app.monitor.NoData;
import io.gpuforge.domain.connections.ConnectionState;
import io.gpuforge.ui.common.ClockText;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.NavItem;
import java.util.HashMap;
import java.util.Map;

/**
 * What follows a row's name in the navigation tree, and what its tooltip adds: "· reconnecting…" after a connection
 * that is not connected; "· no data since 10:42:07" after a GPU the monitor watches without readings (the problem in
 * the tooltip). FX thread.
 */
final class TreeSuffixes {

    private final I18n i18n;
    private final Map<Long, ConnectionState> states = new HashMap<>();
    /** GPUs the monitor watches that have no data now, by item id (empty while it is closed). */
    private Map<String, NoData> noData = Map.of();

    TreeSuffixes(I18n i18n) {
        this.i18n = i18n;
    }

    void state(long connectionId, ConnectionState s) {
        states.put(connectionId, s);
    }

    ConnectionState state(long connectionId) {
        return states.get(connectionId);
    }

    void forget(long connectionId) {
        states.remove(connectionId);
    }

    void noData(Map<String, NoData> lost) {
        noData = lost;
    }

    /** What a row's tooltip adds: why a GPU has no data. */
    String hover(NavItem item) {
        NoData n = item.kind() == NavItem.Kind.GPU ? noData.get(item.id()) : null;
        return n == null || n.problem().isEmpty() ? "" : n.problem();
    }

    /** What follows the row's name ("" for nothing). */
    String suffix(NavItem item) {
        if (item.kind() == NavItem.Kind.GPU) {
            NoData n = noData.get(item.id());
            return n == null ? "" : "  · " + n.since().map(t -> i18n.get("console.tree.gpuNoData", ClockText.of(t)))
                    .orElse(i18n.get("monitor.fleet.lost"));
        }
        if (item.kind() != NavItem.Kind.CONNECTION || item.connection().isEmpty()) {
            return "";
        }
        ConnectionState s = states.get(item.connection().get().id());
        if (s == null) {
            return "";
        }
        switch (s.status()) {
            case RECONNECTING:
                return "  · " + i18n.get("console.state.reconnecting");
            case FAILED:
                return "  · " + i18n.get("console.state.failed");
            case CONNECTING:
                return "  · " + i18n.get("console.state.connecting");
            default:
                return "";
        }
    }
}
