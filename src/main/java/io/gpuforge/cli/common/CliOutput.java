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
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public CliOutput(PrintWriter out, PrintWriter err) {
        this.out = new TerminalText.SafeWriter(out, true);
        this.err = new TerminalText.SafeWriter(err, true);
        json.getFactory().setCharacterEscapes(new TerminalText.JsonEscapes());
    }

    /** "1 node", "3 nodes": a count with its noun, singular or plural as English has it (nouns that take an s). */
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

    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    public static CliOutput system() {
        return new CliOutput(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
    }

    public PrintWriter out() {
        return out;
    }

    public PrintWriter err() {
        return err;
    }

    public void line(String s) {
        out.println(s);
        out.flush();
    }

    public void error(String s) {
        err.println(s);
        err.flush();
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
