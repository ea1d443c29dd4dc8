package io.gpuforge.app.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.tasks.TaskRecord;
import io.gpuforge.domain.tasks.TaskRef;
import io.gpuforge.store.Database;
import io.gpuforge.store.TaskLogRepository;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task log on a real SQLite file: kept across restarts, told to listeners, exported as CSV and JSON lines. */
class TaskLogTest {

    @TempDir
    Path dir;

    private static final ConnectionInfo PVE = new ConnectionInfo(7, "lab-pve", ConnectionInfo.Kind.PROXMOX,
            "https://pve:8006", "root@pam!gpuforge", Optional.empty());
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-01T10:00:00Z"), ZoneOffset.UTC);

    private TaskLog log(Database db) {
        return new TaskLog(new TaskLogRepository(db), CLOCK, "alice");
    }

    private static TaskOutcome ok(String upid) {
        return new TaskOutcome(new TaskRef(upid, "pve-4090", "qmstart", "101"), true, "OK", List.of("TASK OK"),
                Optional.empty());
    }

    @Test
    void aTaskIsKeptAcrossRestartsWithWhoWhatWhenTargetStatusAndLog() throws Exception {
        Path file = dir.resolve("gpuforge.db");
        try (Database db = Database.open(file)) {
            TaskLog.Running r = log(db).begin(PVE, TaskLog.VM_START, "101@pve-4090", "Start VM 101 on pve-4090");
            r.line("starting qmstart 101 on pve-4090");
            r.line("progress 50%");
            r.finish(ok("UPID:pve-4090:0001:0002:0003:qmstart:101:root@pam!gpuforge:"));
        }
        try (Database db = Database.open(file)) {
            List<TaskRecord> all = log(db).recent(10);
            assertThat(all).singleElement().satisfies(t -> {
                assertThat(t.user()).isEqualTo("alice");
                assertThat(t.actingAs()).isEqualTo("root@pam!gpuforge");
                assertThat(t.connection()).isEqualTo("lab-pve");
                assertThat(t.connectionId()).isEqualTo(7);
                assertThat(t.action()).isEqualTo("vm.start");
                assertThat(t.target()).isEqualTo("101@pve-4090");
                assertThat(t.status()).isEqualTo(TaskRecord.Status.OK);
                assertThat(t.statusText()).isEqualTo("OK");
                assertThat(t.upid()).hasValueSatisfying(u -> assertThat(u).startsWith("UPID:pve-4090"));
                assertThat(t.log()).containsExactly("starting qmstart 101 on pve-4090", "progress 50%");
                assertThat(t.started()).isEqualTo(CLOCK.instant());
                assertThat(t.ended()).contains(CLOCK.instant());
            });
        }
    }

    @Test
    void listenersHearTheStartEachLineAndTheEnd() throws Exception {
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            TaskLog log = log(db);
            List<TaskRecord> heard = new CopyOnWriteArrayList<>();
            log.addListener(heard::add);
            TaskLog.Running r = log.begin(PVE, TaskLog.VM_STOP, "101@pve-4090", "Stop VM 101");
            r.line("one");
            r.failed(new IllegalStateException("VM 101 is locked (backup)"));
            assertThat(heard).extracting(TaskRecord::status).containsExactly(TaskRecord.Status.RUNNING,
                    TaskRecord.Status.RUNNING, TaskRecord.Status.FAILED);
            assertThat(heard.get(2).statusText()).isEqualTo("VM 101 is locked (backup)");
            assertThat(heard).extracting(TaskRecord::id).allMatch(id -> id == heard.get(0).id() && id > 0);
        }
    }

    @Test
    void tasksStillRunningWhenGpuforgeQuitAreMarkedAbandonedOnTheNextStart() throws Exception {
        Path file = dir.resolve("gpuforge.db");
        try (Database db = Database.open(file)) {
            log(db).begin(PVE, TaskLog.VM_CLONE, "9000@pve-3090", "Clone VM 9000 as web-2");
        }
        try (Database db = Database.open(file)) {
            TaskLog log = log(db);
            log.abandonLeftovers();
            assertThat(log.recent(5)).singleElement().satisfies(t -> {
                assertThat(t.status()).isEqualTo(TaskRecord.Status.FAILED);
                assertThat(t.statusText()).contains("quit while waiting");
            });
        }
    }

    @Test
    void theExportIsCsvOrJsonLinesThatOtherToolsReadBack() throws Exception {
        try (Database db = Database.open(dir.resolve("gpuforge.db"))) {
            TaskLog log = log(db);
            TaskLog.Running r = log.begin(PVE, TaskLog.VM_CLONE, "9000@pve-3090", "Clone VM 9000 as \"web, 2\"");
            r.line("drive-scsi0: transferred 1.0 GiB of 32.0 GiB (3.13%)");
            r.line("=cmd|' /C calc'!A0");
            r.finish(new TaskOutcome(new TaskRef("UPID:x", "pve-3090", "qmclone", "9000"), false,
                    "clone failed: storage full", List.of(), Optional.empty()));
            List<TaskRecord> all = log.between(Instant.EPOCH, CLOCK.instant().plusSeconds(1));

            Path csv = dir.resolve("out/tasks.csv");
            assertThat(TaskLogExport.write(all, TaskLogExport.Format.of(csv), csv)).isEqualTo(1);
            List<List<String>> rows = parseCsv(Files.readString(csv, StandardCharsets.UTF_8));
            assertThat(rows).hasSize(2);
            assertThat(rows.get(0)).isEqualTo(TaskLogExport.COLUMNS);
            List<String> row = rows.get(1);
            assertThat(row.get(TaskLogExport.COLUMNS.indexOf("description"))).isEqualTo("Clone VM 9000 as \"web, 2\"");
            assertThat(row.get(TaskLogExport.COLUMNS.indexOf("status"))).isEqualTo("FAILED");
            assertThat(row.get(TaskLogExport.COLUMNS.indexOf("user"))).isEqualTo("alice");
            assertThat(row.get(TaskLogExport.COLUMNS.indexOf("log")))
                    .isEqualTo("drive-scsi0: transferred 1.0 GiB of 32.0 GiB (3.13%)\n=cmd|' /C calc'!A0");
            // a cell a spreadsheet would run as a formula is written as text
            assertThat(TaskLogExport.csvCell("=cmd|' /C calc'!A0")).isEqualTo("'=cmd|' /C calc'!A0");
            assertThat(TaskLogExport.csvCell("-42")).isEqualTo("-42");

            Path jsonl = dir.resolve("out/tasks.jsonl");
            TaskLogExport.write(all, TaskLogExport.Format.of(jsonl), jsonl);
            List<String> lines = Files.readAllLines(jsonl, StandardCharsets.UTF_8);
            assertThat(lines).hasSize(1);
            JsonNode n = new ObjectMapper().readTree(lines.get(0));
            assertThat(n.get("action").asText()).isEqualTo("vm.clone");
            assertThat(n.get("status").asText()).isEqualTo("failed");
            assertThat(n.get("status_text").asText()).isEqualTo("clone failed: storage full");
            assertThat(n.get("target").asText()).isEqualTo("9000@pve-3090");
            assertThat(n.get("started").asText()).isEqualTo("2025-03-01T10:00:00Z");
            assertThat(n.get("log")).hasSize(2);
            assertThat(n.get("log").get(1).asText()).isEqualTo("=cmd|' /C calc'!A0");
        }
    }

    /** RFC 4180, as a spreadsheet reads it. */
    static List<List<String>> parseCsv(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    cell.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                row.add(cell.toString());
                cell.setLength(0);
            } else if (ch == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                row.add(cell.toString());
                cell.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
                i++;
            } else {
                cell.append(ch);
            }
        }
        return rows;
    }
}
