package io.gpuforge.app.passthrough;

import io.gpuforge.domain.passthrough.ApplyProgress;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The one way an apply's or a rollback's progress becomes lines, for the command line and the window alike: a line
 * when a step starts ("running update-initramfs -u -k all"), each line of a command's output indented under it,
 * and a line when a step fails. {@link Style#TEXT} is the command line's (plain text, output behind "  | ");
 * {@link Style#SYMBOLS} the window's ("▸ ", "✗ "). With {@code steps} off (the CLI's {@code --quiet}) only failures
 * are told. Calls come one at a time on the applying thread; the sink must hand lines on if another thread shows
 * them.
 */
public final class ApplyProgressLines implements ApplyProgress {

    /** How the lines look. */
    public enum Style {
        /** the command line: "running x", "  | output", "  FAILED: running x" */
        TEXT("", "  | ", "  FAILED: "),
        /** the window: "▸ running x", "  output", "✗ running x" */
        SYMBOLS("▸ ", "  ", "✗ ");

        private final String started;
        private final String output;
        private final String failed;

        Style(String started, String output, String failed) {
            this.started = started;
            this.output = output;
            this.failed = failed;
        }
    }

    private final Consumer<String> sink;
    private final Style style;
    private final boolean steps;

    /** @param steps whether steps and their output are told (a failure always is) */
    public ApplyProgressLines(Consumer<String> sink, Style style, boolean steps) {
        this.sink = Objects.requireNonNull(sink);
        this.style = Objects.requireNonNull(style);
        this.steps = steps;
    }

    public ApplyProgressLines(Consumer<String> sink, Style style) {
        this(sink, style, true);
    }

    @Override
    public void started(Step step) {
        if (steps) {
            sink.accept(style.started + step.describe());
        }
    }

    @Override
    public void output(Step step, String line, boolean stderr) {
        if (steps) {
            sink.accept(style.output + line);
        }
    }

    @Override
    public void finished(Step step, boolean succeeded) {
        if (!succeeded) {
            sink.accept(style.failed + step.describe());
        }
    }
}
