package io.gpuforge.store;

import io.gpuforge.domain.connections.HostLink;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The host links the user made; removed with their connection (foreign key, cascade). */
public final class HostLinkRepository {

    private final Database db;

    public HostLinkRepository(Database db) {
        this.db = db;
    }

    public List<HostLink> of(long connectionId) throws StoreException {
        return db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT node, target FROM host_link WHERE connection_id = ? ORDER BY node")) {
                ps.setLong(1, connectionId);
                try (ResultSet rs = ps.executeQuery()) {
                    List<HostLink> out = new ArrayList<>();
                    while (rs.next()) {
                        try {
                            out.add(new HostLink(connectionId, rs.getString(1), HostLink.Target.parse(rs.getString(2)),
                                    false));
                        } catch (IllegalArgumentException e) {
                            throw new SQLException("host_link of connection " + connectionId + " is damaged: "
                                    + e.getMessage(), e);
                        }
                    }
                    return out;
                }
            }
        });
    }

    /** Links a node (replacing an earlier link of the same node). */
    public void put(HostLink link) throws StoreException {
        db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO host_link (connection_id, node, target)"
                    + " VALUES (?, ?, ?) ON CONFLICT (connection_id, node) DO UPDATE SET target = excluded.target")) {
                ps.setLong(1, link.connectionId());
                ps.setString(2, link.node());
                ps.setString(3, link.target().key());
                return ps.executeUpdate();
            }
        });
    }

    public void remove(long connectionId, String node) throws StoreException {
        db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM host_link WHERE connection_id = ? AND node = ?")) {
                ps.setLong(1, connectionId);
                ps.setString(2, node);
                return ps.executeUpdate();
            }
        });
    }
}
