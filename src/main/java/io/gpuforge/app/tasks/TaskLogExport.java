package io.gpuforge.app.tasks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.domain.tasks.TaskRecord;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The task log as a central log system takes it: CSV (RFC 4180, one row per task, the log's lines joined by
 * {@code \n} inside its quoted cell) or JSON lines (one object per task, the log as an array). Times are ISO-8601
 * UTC. Written to a temp file next to the target and moved into place, so a half-written export never lies there.
 */
public final class TaskLogExport {

    public enum Format {
        CSV, JSON_LINES;

        /** The usual file name extension. */
        public String extension() {
            return this == CSV ? "csv" : "jsonl";
        }

        public static Format of(Path file) {
            String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
            return n.endsWith(".csv") ? CSV : JSON_LINES;
        }
    }

    static final List<String> COLUMNS = List.of("id", "started", "ended", "duration_ms", "user", "acting_as",
            "connection", "target", "action", "description", "status", "status_text", "upid", "origin", "log");
    private static final ObjectMapper JSON = new ObjectMapper();

    private TaskLogExport() {
    }

    /** Writes {@code tasks} to {@code file}; returns how many. */
    public static int write(List<TaskRecord> tasks, Format format, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, ".gpuforge-export-", ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                if (format == Format.CSV) {
                    w.write(String.join(",", COLUMNS));
                    w.write("\r\n");
                    for (TaskRecord t : tasks) {
                        w.write(csvRow(t));
                        w.write("\r\n");
                    }
                } else {
                    for (TaskRecord t : tasks) {
                        w.write(jsonLine(t));
                        w.write("\n");
                    }
                }
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return tasks.size();
    }

    static String csvRow(TaskRecord t) {
        StringBuilder b = new StringBuilder();
        List<String> cells = List.of(String.valueOf(t.id()), t.started().toString(),
                t.ended().map(Instant::toString).orElse(""),
                t.ended().isPresent() ? String.valueOf(t.duration(t.ended().get()).toMillis()) : "", t.user(),
                t.actingAs(), t.connection(), t.target(), t.action(), t.description(), t.status().name(), t.statusText(),
                t.upid().orElse(""), t.origin().name(), String.join("\n", t.log()));
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(csvCell(cells.get(i)));
        }
        return b.toString();
    }

    static String csvCell(String v) {
        return io.gpuforge.domain.CsvCell.of(v);
    }

    static String jsonLine(TaskRecord t) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", t.id());
        n.put("started", t.started().toString());
        if (t.ended().isPresent()) {
            n.put("ended", t.ended().get().toString());
            n.put("duration_ms", t.duration(t.ended().get()).toMillis());
        } else {
            n.putNull("ended");
        }
        n.put("user", t.user());
        n.put("acting_as", t.actingAs());
        n.put("connection", t.connection());
        n.put("target", t.target());
        n.put("action", t.action());
        n.put("description", t.description());
        n.put("status", t.status().name().toLowerCase(Locale.ROOT));
        n.put("status_text", t.statusText());
        if (t.upid().isPresent()) {
            n.put("upid", t.upid().get());
        }
        n.put("origin", t.origin().name().toLowerCase(Locale.ROOT));
        ArrayNode log = n.putArray("log");
        t.log().forEach(log::add);
        return n.toString();
    }
}
