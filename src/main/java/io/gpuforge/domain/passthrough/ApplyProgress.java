package io.gpuforge.domain.passthrough;

/**
 * Progress of an apply or a rollback, step by step, with the output of the refresh commands line by line while
 * they run (update-initramfs can take minutes). The CLI prints it; the passthrough wizard shows it. Called on the
 * thread that runs the apply (a worker, never the FX thread), one call at a time and in order, so an
 * implementation need not lock; one that hands the calls to another thread (the FX thread) must do so through a
 * thread-safe holder. Free of JavaFX.
 */
public interface ApplyProgress {

    /** Reports nothing. */
    ApplyProgress NONE = new ApplyProgress() {
    };

    /** What a step does. */
    enum Kind { BACKUP, WRITE, COMMAND, RESTORE, RERUN }

    /** One step: its kind and the file or command it is about. */
    record Step(Kind kind, String subject) {
        /** "running update-grub", "restoring /etc/default/grub". */
        public String describe() {
            switch (kind) {
                case BACKUP:
                    return "backing up " + subject;
                case WRITE:
                    return "writing " + subject;
                case COMMAND:
                    return "running " + subject;
                case RESTORE:
                    return "restoring " + subject;
                default:
                    return "re-running " + subject;
            }
        }
    }

    default void started(Step step) {
    }

    /** A line a command wrote (stdout or stderr), while it runs. */
    default void output(Step step, String line, boolean stderr) {
    }

    default void finished(Step step, boolean succeeded) {
    }
}
