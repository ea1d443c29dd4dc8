package io.gpuforge.store;

import io.gpuforge.domain.connections.ConnectionInfo;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Saved connections. Never their secrets: {@code secret_ref} names an entry of the secret store. The
 * transactional methods take a {@link SecretStep} that runs inside the transaction, between the row change
 * and the commit, so that a secret is written only for a row that exists and a failing step undoes the row.
 */
public final class ConnectionRepository {

    private static final String COLUMNS = "id, name, kind, address, username, secret_ref, tls_fingerprint, options";
    private final Database db;

    public ConnectionRepository(Database db) {
        this.db = db;
    }

    /**
     * What happens to the secret store inside a transaction, given the row's id and its secret ref before
     * the change (empty when it had none, or when another row shares it). Returns the new secret ref to
     * keep, or empty to leave the column as it is.
     */
    @FunctionalInterface
    public interface SecretStep<X extends Exception> {
        Optional<String> apply(long id, Optional<String> currentRef) throws X;
    }

    /** Inserts a connection as given (its own secret ref, if any). */
    public ConnectionInfo add(ConnectionInfo c) throws StoreException {
        return db.inTransaction(conn -> insertRow(conn, c));
    }

    /**
     * Inserts the row, runs {@code secret} with its new id (e.g. to store its secret under that id) and
     * sets the ref that returns, then commits; a failure anywhere leaves no row.
     */
    public <X extends Exception> ConnectionInfo insert(ConnectionInfo c, SecretStep<X> secret) throws StoreException, X {
        return db.inTransaction(conn -> {
            ConnectionInfo saved = insertRow(conn, c);
            Optional<String> ref = secret.apply(saved.id(), Optional.empty());
            if (ref.isPresent()) {
                setRef(conn, saved.id(), ref);
                return new ConnectionInfo(saved.id(), saved.name(), saved.kind(), saved.address(), saved.username(), ref,
                        saved.tlsFingerprint(), saved.options());
            }
            return saved;
        });
    }

    /**
     * Changes name, address, user, fingerprint and options of connection {@code c.id()} (not its kind), runs
     * {@code secret}, sets the ref it returns, then commits; a failure anywhere leaves the row as it was.
     */
    public <X extends Exception> ConnectionInfo update(ConnectionInfo c, SecretStep<X> secret) throws StoreException, X {
        return db.inTransaction(conn -> {
            ConnectionInfo before = find(conn, c.id()).orElseThrow(() -> new SQLException(notFound(c.id())));
            if (before.kind() != c.kind()) {
                throw new SQLException("The connection '" + before.name() + "' is a " + before.kind().db()
                        + " connection; its kind cannot change (remove it and add a new one)");
            }
            try (PreparedStatement ps = conn.prepareStatement(
                    "UPDATE connection SET name = ?, address = ?, username = ?, tls_fingerprint = ?, options = ?"
                            + " WHERE id = ?")) {
                ps.setString(1, c.name());
                ps.setString(2, c.address());
                ps.setString(3, c.username());
                ps.setString(4, c.tlsFingerprint().orElse(null));
                ps.setString(5, ConnectionOptionsJson.write(c.options()));
                ps.setLong(6, c.id());
                ps.executeUpdate();
            } catch (SQLException e) {
                throw duplicateName(e, c.name());
            }
            Optional<String> ref = secret.apply(c.id(), ownRef(conn, before));
            if (ref.isPresent()) {
                setRef(conn, c.id(), ref);
            }
            return find(conn, c.id()).orElseThrow(() -> new SQLException(notFound(c.id())));
        });
    }

    /**
     * Deletes connection {@code id}, runs {@code secret} with its ref (e.g. to delete that secret), then
     * commits; a failure anywhere keeps the row. Returns the row as it was, empty if there was none.
     */
    public <X extends Exception> Optional<ConnectionInfo> delete(long id, SecretStep<X> secret) throws StoreException, X {
        return db.inTransaction(conn -> {
            Optional<ConnectionInfo> before = find(conn, id);
            if (before.isEmpty()) {
                return before;
            }
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM connection WHERE id = ?")) {
                ps.setLong(1, id);
                ps.executeUpdate();
            }
            secret.apply(id, ownRef(conn, before.get()));
            return before;
        });
    }

    /** Deletes the row only; its secret is the caller's business. */
    public void delete(long id) throws StoreException {
        db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM connection WHERE id = ?")) {
                ps.setLong(1, id);
                return ps.executeUpdate();
            }
        });
    }

    public List<ConnectionInfo> all() throws StoreException {
        return db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("SELECT " + COLUMNS + " FROM connection ORDER BY name");
                 ResultSet rs = ps.executeQuery()) {
                List<ConnectionInfo> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(row(rs));
                }
                return out;
            }
        });
    }

    public Optional<ConnectionInfo> find(long id) throws StoreException {
        return db.with(conn -> find(conn, id));
    }

    /**
     * The highest id a connection was ever given, removed ones included (ids are never reused: AUTOINCREMENT);
     * 0 when none was ever saved. What was kept under a removed connection's id can be found with it.
     */
    public long highestIdEverUsed() throws StoreException {
        return db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement(
                    "SELECT seq FROM sqlite_sequence WHERE name = 'connection'");
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    /** Whether a connection other than {@code exceptId} has this name (names are unique). */
    public boolean nameTaken(String name, long exceptId) throws StoreException {
        return db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("SELECT 1 FROM connection WHERE name = ? AND id <> ?")) {
                ps.setString(1, name);
                ps.setLong(2, exceptId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** The message for a name that is taken. */
    public static String nameTakenMessage(String name) {
        return "A connection named '" + name + "' exists already: choose another name";
    }

    private static ConnectionInfo insertRow(Connection conn, ConnectionInfo c) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("INSERT INTO connection (name, kind, address, username,"
                + " secret_ref, created_at, tls_fingerprint, options) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                PreparedStatement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, c.name());
            ps.setString(2, c.kind().db());
            ps.setString(3, c.address());
            ps.setString(4, c.username());
            ps.setString(5, c.secretRef().orElse(null));
            ps.setLong(6, System.currentTimeMillis());
            ps.setString(7, c.tlsFingerprint().orElse(null));
            ps.setString(8, ConnectionOptionsJson.write(c.options()));
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return c.withId(keys.getLong(1));
            }
        } catch (SQLException e) {
            throw duplicateName(e, c.name());
        }
    }

    private static SQLException duplicateName(SQLException e, String name) {
        if (e.getMessage() != null && e.getMessage().contains("UNIQUE")) {
            return new SQLException(nameTakenMessage(name), e);
        }
        return e;
    }

    private static void setRef(Connection conn, long id, Optional<String> ref) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("UPDATE connection SET secret_ref = ? WHERE id = ?")) {
            if (ref.isPresent()) {
                ps.setString(1, ref.get());
            } else {
                ps.setNull(1, Types.VARCHAR);
            }
            ps.setLong(2, id);
            ps.executeUpdate();
        }
    }

    /** The row's secret ref, unless another row names the same entry (then it is not this row's to change). */
    private static Optional<String> ownRef(Connection conn, ConnectionInfo row) throws SQLException {
        if (row.secretRef().isEmpty()) {
            return Optional.empty();
        }
        try (PreparedStatement ps = conn.prepareStatement("SELECT 1 FROM connection WHERE secret_ref = ? AND id <> ?")) {
            ps.setString(1, row.secretRef().get());
            ps.setLong(2, row.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.empty() : row.secretRef();
            }
        }
    }

    private static Optional<ConnectionInfo> find(Connection conn, long id) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT " + COLUMNS + " FROM connection WHERE id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    private static ConnectionInfo row(ResultSet rs) throws SQLException {
        return new ConnectionInfo(rs.getLong(1), rs.getString(2), ConnectionInfo.Kind.fromDb(rs.getString(3)),
                rs.getString(4), rs.getString(5), Optional.ofNullable(rs.getString(6)), Optional.ofNullable(rs.getString(7)),
                ConnectionOptionsJson.read(rs.getString(8), rs.getLong(1)));
    }

    private static String notFound(long id) {
        return "No saved connection has id " + id + " (was it removed in another window?)";
    }
}
