package io.gpuforge.cli.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The CLI's output writer: the one place in the product that writes to stdout/stderr. Results go to
 * {@code out} (text or JSON), diagnostics to {@code err}. Much of what is printed comes from a host
 * (file contents, device names, error output), so both writers show control characters, escape
 * sequences and bidi overrides escaped ({@link TerminalText}) and JSON escapes them too.
 */
public final class CliOutput {

    private final PrintWriter out;
    private final PrintWriter err;
    /** stderr itself, for the status line's carriage return and erase (the safe writer escapes them). */
    private final PrintWriter rawErr;
    /** Whether stderr is a terminal: a wait's status then updates in place. */
    private final boolean terminal;
    private boolean statusShown;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public CliOutput(PrintWriter out, PrintWriter err) {
        this(out, err, false);
    }

    /** {@code terminal}: whether {@code err} is a terminal, where a wait's status updates in place. */
    public CliOutput(PrintWriter out, PrintWriter err, boolean terminal) {
        this.out = new TerminalText.SafeWriter(out, true);
        this.err = new TerminalText.SafeWriter(err, true);
        this.rawErr = err;
        this.terminal = terminal;
        json.getFactory().setCharacterEscapes(new TerminalText.JsonEscapes());
    }

    /**
     * The exit code of a command that stopped on {@code e}: 2 when what the user gave was wrong (a malformed value, a
     * VM, node or container there is not), else 1 (something failed while doing it).
     */
    public static int exit(Exception e) {
        if (e instanceof IllegalArgumentException) {
            return 2;
        }
        return e instanceof io.gpuforge.domain.BackendException b
                && b.kind() == io.gpuforge.domain.BackendException.Kind.NOT_FOUND ? 2 : 1;
    }

    /** "1 node", "3 nodes": a count with its noun, singular or plural as English has it (nouns that take an s). */
    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    public static CliOutput system() {
        return new CliOutput(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true),
                System.console() != null);
    }

    public PrintWriter out() {
        return out;
    }

    public PrintWriter err() {
        return err;
    }

    public void line(String s) {
        endStatus();
        out.println(s);
        out.flush();
    }

    public void error(String s) {
        endStatus();
        err.println(s);
        err.flush();
    }

    /**
     * A wait's status ("down (12 s): …"), replacing the last one in place on a terminal; nothing when stderr is not a
     * terminal (a log), where the state changes come as lines of their own.
     */
    public synchronized void status(String s) {
        if (!terminal) {
            return;
        }
        err.flush();
        rawErr.print("\r");
        rawErr.flush();
        err.print(s);
        err.flush();
        rawErr.print("\u001b[K");
        rawErr.flush();
        statusShown = true;
    }

    /** Whether a wait's status is shown in place (stderr is a terminal). */
    public boolean terminal() {
        return terminal;
    }

    private synchronized void endStatus() {
        if (statusShown) {
            rawErr.print("\r\u001b[K");
            rawErr.flush();
            statusShown = false;
        }
    }

    public void json(Object value) {
        try {
            out.println(json.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write JSON output", e);
        }
        out.flush();
    }

    public ObjectMapper mapper() {
        return json;
    }
}
