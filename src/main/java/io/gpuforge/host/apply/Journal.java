package io.gpuforge.host.apply;

import io.gpuforge.domain.host.JournalState;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.ArrayList;
import java.util.List;

/**
 * The record of an apply, kept on the host in {@code /var/lib/gpuforge/journal.json} (and as the
 * manifest of its backup directory): which files it touches, whether each existed before, which were
 * written, which refresh commands were started, and how far it got. Mutable only while an apply or
 * rollback runs.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class Journal {

    public static final String PATH = "/var/lib/gpuforge/journal.json";


    /** One file of the apply. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static final class FileEntry {
        public String path;
        public boolean existed;
        public boolean written;

        public FileEntry() {
        }

        FileEntry(String path, boolean existed) {
            this.path = path;
            this.existed = existed;
        }
    }

    public String id;
    public String planId;
    public JournalState state;
    public String backupDir;
    public List<FileEntry> files = new ArrayList<>();
    public List<String> commands = new ArrayList<>();
    /** The commands the apply started on the host, in order (null in journals older than this field: all). */
    public List<String> commandsStarted;
    /** The commands a rollback re-ran successfully after restoring the files (a repeated rollback skips them). */
    public List<String> commandsRerun = new ArrayList<>();
    /** A command that ran past its time limit and may still be running on the host. */
    public String unfinishedCommand;
    public List<String> functions = new ArrayList<>();
    public List<String> kernelArgs = new ArrayList<>();
    public long createdAtMillis;

    /** The refresh commands to re-run after the files are restored: those started and not yet re-run, in order. */
    List<String> commandsToRerun() {
        List<String> started = commandsStarted == null ? commands : commandsStarted;
        List<String> done = commandsRerun == null ? List.of() : commandsRerun;
        return commands.stream().filter(started::contains).filter(c -> !done.contains(c)).toList();
    }
}
