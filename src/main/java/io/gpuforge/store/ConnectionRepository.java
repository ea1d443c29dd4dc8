package io.gpuforge.store;

import io.gpuforge.domain.ConnectionInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Saved connections. Never their secrets: {@code secret_ref} names an entry of the secret store. */
public final class ConnectionRepository {

    private final Database db;

    public ConnectionRepository(Database db) {
        this.db = db;
    }

    public ConnectionInfo add(ConnectionInfo c) throws StoreException {
        return db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO connection (name, kind, address, username,"
                    + " secret_ref, created_at, tls_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?)", PreparedStatement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, c.name());
                ps.setString(2, c.kind().db());
                ps.setString(3, c.address());
                ps.setString(4, c.username());
                ps.setString(5, c.secretRef().orElse(null));
                ps.setLong(6, System.currentTimeMillis());
                ps.setString(7, c.tlsFingerprint().orElse(null));
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    keys.next();
                    return c.withId(keys.getLong(1));
                }
            } catch (SQLException e) {
                if (e.getMessage() != null && e.getMessage().contains("UNIQUE")) {
                    throw new SQLException("A connection named '" + c.name() + "' exists already", e);
                }
                throw e;
            }
        });
    }

    public List<ConnectionInfo> all() throws StoreException {
        return db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT id, name, kind, address, username, secret_ref, tls_fingerprint FROM connection ORDER BY name");
                 ResultSet rs = ps.executeQuery()) {
                List<ConnectionInfo> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new ConnectionInfo(rs.getLong(1), rs.getString(2), ConnectionInfo.Kind.fromDb(rs.getString(3)),
                            rs.getString(4), rs.getString(5), Optional.ofNullable(rs.getString(6)),
                            Optional.ofNullable(rs.getString(7))));
                }
                return out;
            }
        });
    }

    public void delete(long id) throws StoreException {
        db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM connection WHERE id = ?")) {
                ps.setLong(1, id);
                return ps.executeUpdate();
            }
        });
    }
}
