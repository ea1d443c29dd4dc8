package io.gpuforge.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.domain.diagnose.AppliedFix;
import io.gpuforge.domain.passthrough.ConfigChange;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The fixes a diagnosis applied, newest first, to roll back later; removed with their connection. */
public final class DiagnosisFixRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "id, connection_id, node, vm, cause, at_millis, host_journal, vm_change,"
            + " vm_undo, vm_version, diff, state";

    private final Database db;

    public DiagnosisFixRepository(Database db) {
        this.db = db;
    }

    public void save(AppliedFix f) throws StoreException {
        db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO diagnosis_fix (" + COLUMNS + ") VALUES"
                    + " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state")) {
                ps.setString(1, f.id());
                ps.setLong(2, f.connectionId());
                ps.setString(3, f.node());
                ps.setString(4, f.vm());
                ps.setString(5, f.cause());
                ps.setLong(6, f.at().toEpochMilli());
                ps.setString(7, f.hostJournal().orElse(null));
                ps.setString(8, f.vmChange().map(DiagnosisFixRepository::json).orElse(null));
                ps.setString(9, f.vmUndo().map(DiagnosisFixRepository::json).orElse(null));
                ps.setString(10, f.vmVersion().orElse(null));
                ps.setString(11, f.diff());
                ps.setString(12, f.rolledBack() ? "ROLLED_BACK" : "APPLIED");
                return ps.executeUpdate();
            }
        });
    }

    public Optional<AppliedFix> find(String id) throws StoreException {
        List<AppliedFix> found = query("WHERE id = ?", id);
        return found.stream().findFirst();
    }

    /** The fixes applied on a connection's VMs, newest first. */
    public List<AppliedFix> of(long connectionId) throws StoreException {
        return query("WHERE connection_id = ?", connectionId);
    }

    private List<AppliedFix> query(String where, Object key) throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM diagnosis_fix " + where
                    + " ORDER BY at_millis DESC, id DESC")) {
                ps.setObject(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    List<AppliedFix> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(read(rs));
                    }
                    return out;
                }
            }
        });
    }

    private static AppliedFix read(ResultSet rs) throws SQLException {
        String id = rs.getString(1);
        try {
            return new AppliedFix(id, rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                    Instant.ofEpochMilli(rs.getLong(6)), Optional.ofNullable(rs.getString(7)),
                    change(rs.getString(8)), change(rs.getString(9)), Optional.ofNullable(rs.getString(10)),
                    rs.getString(11), "ROLLED_BACK".equals(rs.getString(12)));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new SQLException("diagnosis fix " + id + " is damaged: " + e.getMessage(), e);
        }
    }

    static String json(ConfigChange change) {
        ObjectNode o = JSON.createObjectNode();
        if (change instanceof ConfigChange.Settings s) {
            ObjectNode keys = o.putObject("settings");
            s.keys().forEach((k, v) -> {
                if (v.isPresent()) {
                    keys.put(k, v.get());
                } else {
                    keys.putNull(k);
                }
            });
        } else if (change instanceof ConfigChange.Document d) {
            o.put("document", d.xml());
        } else {
            throw new IllegalArgumentException("a diagnosis fix changes settings or a document, not " + change);
        }
        return o.toString();
    }

    static Optional<ConfigChange> change(String json) throws JsonProcessingException {
        if (json == null) {
            return Optional.empty();
        }
        JsonNode o = JSON.readTree(json);
        if (o.hasNonNull("document")) {
            return Optional.of(new ConfigChange.Document(o.get("document").asText()));
        }
        JsonNode keys = o.get("settings");
        if (keys == null || !keys.isObject()) {
            throw new IllegalArgumentException("neither settings nor a document");
        }
        Map<String, Optional<String>> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = keys.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().isNull() ? Optional.empty() : Optional.of(e.getValue().asText()));
        }
        return Optional.of(new ConfigChange.Settings(out));
    }
}
