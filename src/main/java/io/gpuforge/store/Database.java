package io.gpuforge.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SQLite database in the per-user data directory. Opening it applies the pending migrations
 * ({@code db/migration/V<n>__<name>.sql}, tracked with {@code PRAGMA user_version}, each in its own
 * transaction) and switches the journal to WAL. One connection, used by one thread at a time.
 */
public final class Database implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    /** Migrations in order; version n is the n-th entry. Append, never edit a released one. */
    static final List<String> MIGRATIONS = List.of("V1__init.sql", "V2__connection_tls_fingerprint.sql",
            "V3__host_link.sql", "V4__telemetry.sql", "V5__vm_templates.sql", "V6__alert_rules.sql",
            "V7__task_log.sql", "V8__connection_options.sql", "V9__diagnosis_fix.sql");

    private final Connection connection;
    private final Path file;

    private Database(Path file, Connection connection) {
        this.file = file;
        this.connection = connection;
    }

    public static Database open(Path file) throws StoreException {
        Objects.requireNonNull(file);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
        } catch (IOException e) {
            throw new StoreException("Cannot create the data directory for " + file, e);
        }
        Connection c = null;
        try {
            c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 5000");
                s.execute("PRAGMA foreign_keys = ON");
                try (ResultSet rs = s.executeQuery("PRAGMA journal_mode = WAL")) {
                    String mode = rs.next() ? rs.getString(1) : "?";
                    if (!"wal".equalsIgnoreCase(mode)) {
                        LOG.warn("SQLite refused WAL mode for {} (journal_mode={})", file, mode);
                    }
                }
            }
            Database db = new Database(file, c);
            db.migrate();
            return db;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new StoreException("Cannot open the database " + file + ": " + e.getMessage(), e);
        } catch (StoreException e) {
            closeQuietly(c);
            throw e;
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing; the first error is the one reported
            }
        }
    }

    public synchronized int schemaVersion() throws StoreException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
            return rs.next() ? rs.getInt(1) : 0;
        } catch (SQLException e) {
            throw new StoreException("Cannot read the schema version", e);
        }
    }

    public synchronized String journalMode() throws StoreException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
            return rs.next() ? rs.getString(1) : "";
        } catch (SQLException e) {
            throw new StoreException("Cannot read the journal mode", e);
        }
    }

    private synchronized void migrate() throws StoreException {
        int current = schemaVersion();
        if (current > MIGRATIONS.size()) {
            throw new StoreException("The database " + file + " has schema version " + current
                    + ", newer than this GPUForge knows (" + MIGRATIONS.size() + "). Use a newer GPUForge.", null);
        }
        for (int v = current + 1; v <= MIGRATIONS.size(); v++) {
            String name = MIGRATIONS.get(v - 1);
            List<String> statements = splitStatements(readMigration(name));
            try {
                connection.setAutoCommit(false);
                try (Statement s = connection.createStatement()) {
                    for (String sql : statements) {
                        s.execute(sql);
                    }
                    s.execute("PRAGMA user_version = " + v);
                }
                connection.commit();
                LOG.info("Database {} migrated to version {} ({})", file, v, name);
            } catch (SQLException e) {
                try {
                    connection.rollback();
                } catch (SQLException rollbackError) {
                    e.addSuppressed(rollbackError);
                }
                throw new StoreException("Migration " + name + " failed: " + e.getMessage(), e);
            } finally {
                try {
                    connection.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // the connection is unusable anyway if this fails
                }
            }
        }
    }

    private static String readMigration(String name) throws StoreException {
        String resource = "/db/migration/" + name;
        try (InputStream in = Database.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new StoreException("Migration " + resource + " is missing from the application", null);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StoreException("Cannot read migration " + resource, e);
        }
    }

    /** Splits a script on semicolons that end a line; strips {@code --} comment lines. */
    static List<String> splitStatements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script.split("\\R")) {
            String trimmed = line.strip();
            if (trimmed.startsWith("--") || trimmed.isEmpty()) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String sql = current.toString().strip();
                out.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }

    /** Runs work with the connection, one caller at a time. */
    public synchronized <T> T with(SqlWork<T> work) throws StoreException {
        try {
            return work.apply(connection);
        } catch (SQLException e) {
            throw new StoreException("Database error: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    public interface SqlWork<T> {
        T apply(Connection c) throws SQLException;
    }

    /**
     * Runs work in one transaction: committed when it returns, rolled back when it or the commit throws
     * (then nothing of it is in the database). The work may throw its own checked exception {@code X}, e.g.
     * from a secret store it writes to between statements; a database error becomes a {@link StoreException}.
     */
    public synchronized <T, X extends Exception> T inTransaction(TransactionWork<T, X> work) throws StoreException, X {
        try {
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new StoreException("Database error: cannot start a transaction: " + e.getMessage(), e);
        }
        boolean committed = false;
        try {
            T result = work.apply(connection);
            connection.commit();
            committed = true;
            return result;
        } catch (SQLException e) {
            throw new StoreException("Database error: " + e.getMessage(), e);
        } finally {
            if (!committed) {
                rollbackQuietly();
            }
            try {
                connection.setAutoCommit(true);
            } catch (SQLException e) {
                LOG.warn("Could not return the database {} to autocommit: {}", file, e.getMessage());
            }
        }
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.warn("Rolling back a failed transaction on {} failed too: {}", file, e.getMessage());
        }
    }

    /** Work inside {@link #inTransaction}. */
    @FunctionalInterface
    public interface TransactionWork<T, X extends Exception> {
        T apply(Connection c) throws SQLException, X;
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized void close() {
        closeQuietly(connection);
    }
}
