package io.gpuforge.store;

import io.gpuforge.domain.vm.TemplateFormatException;
import io.gpuforge.domain.vm.VmTemplate;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The user's VM templates, one row each ({@code vm_template}), the template as JSON of the current file version.
 * Names are unique (the table says so). Blocking (SQLite): off the FX thread.
 */
public final class TemplateRepository {

    private final Database db;
    private final Clock clock;

    public TemplateRepository(Database db, Clock clock) {
        this.db = db;
        this.clock = clock;
    }

    /** Every user template by name; a damaged row is reported naming its id. */
    public List<VmTemplate> all() throws StoreException {
        List<String[]> rows = db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("SELECT id, body FROM vm_template ORDER BY name");
                 ResultSet rs = ps.executeQuery()) {
                List<String[]> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new String[] {rs.getString(1), rs.getString(2)});
                }
                return out;
            }
        });
        List<VmTemplate> out = new ArrayList<>();
        for (String[] r : rows) {
            try {
                out.add(TemplateJson.readOne(r[1], false));
            } catch (TemplateFormatException e) {
                throw new StoreException("The stored template " + r[0] + " is damaged: " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** Adds or replaces (same id) a user template; a name another template has is refused. */
    public void put(VmTemplate t) throws StoreException {
        if (t.builtIn()) {
            throw new IllegalArgumentException("built-in templates are not stored: save a copy");
        }
        db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO vm_template (id, name, format_version, body,"
                    + " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name,"
                    + " format_version = excluded.format_version, body = excluded.body, updated_at = excluded.updated_at")) {
                ps.setString(1, t.id());
                ps.setString(2, t.name());
                ps.setInt(3, TemplateJson.VERSION);
                ps.setString(4, TemplateJson.one(t));
                ps.setLong(5, clock.millis());
                return ps.executeUpdate();
            } catch (SQLException e) {
                if (String.valueOf(e.getMessage()).contains("UNIQUE constraint failed: vm_template.name")) {
                    throw new SQLException("a template named '" + t.name() + "' exists already", e);
                }
                throw e;
            }
        });
    }

    /** Removes a user template; false when there was none with that id. */
    public boolean remove(String id) throws StoreException {
        return db.with(conn -> {
            try (PreparedStatement ps = conn.prepareStatement("DELETE FROM vm_template WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }
}
