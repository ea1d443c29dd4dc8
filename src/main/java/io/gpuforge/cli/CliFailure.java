package io.gpuforge.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;
import picocli.CommandLine;

/**
 * What the command line says of an error no command caught, in one line, and its exit code: 2 for what the user gave
 * (a value, a file that is not there), 1 for what failed while doing it.
 */
record CliFailure(String message, int exit) {

    static CliFailure of(Exception e) {
        if (e instanceof NoSuchFileException n) {
            return new CliFailure(n.getFile() + ": no such file", 2);
        }
        if (e instanceof AccessDeniedException a) {
            return new CliFailure(a.getFile() + ": not readable by this user", 2);
        }
        if (e instanceof NotDirectoryException d) {
            return new CliFailure(d.getFile() + " is not a directory", 2);
        }
        if (e instanceof FileSystemException f && f.getFile() != null) {
            return new CliFailure(f.getFile() + ": " + (f.getReason() == null ? "cannot be read" : f.getReason()), 1);
        }
        if (e instanceof IllegalArgumentException) {
            return new CliFailure(text(e), 2);
        }
        if (e instanceof IOException && "Is a directory".equals(e.getMessage())) {
            return new CliFailure("a directory was given where a file is read", 2);
        }
        return new CliFailure(text(e), 1);
    }

    /** A parse error as one line: picocli's own sentence, and what it suggests for a mistyped command or option. */
    static String usage(CommandLine.ParameterException e) {
        String m = e.getMessage() == null ? "bad arguments" : e.getMessage().strip();
        if (e instanceof CommandLine.UnmatchedArgumentException u) {
            List<String> close = u.getSuggestions();
            if (!close.isEmpty()) {
                m += "; did you mean " + String.join(" or ", close.subList(0, Math.min(3, close.size()))) + "?";
            }
        }
        return m.lines().findFirst().orElse(m);
    }

    private static String text(Exception e) {
        String m = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> a + " " + b).orElse(m);
    }
}
