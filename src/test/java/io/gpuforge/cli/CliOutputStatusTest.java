package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.cli.common.CliOutput;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A wait's status: in place on a terminal (carriage return, erase), nothing in a log, where state lines suffice. */
class CliOutputStatusTest {

    @Test
    void onATerminalTheStatusIsRewrittenInPlaceAndClearedBeforeTheNextLine() {
        StringWriter err = new StringWriter();
        CliOutput o = new CliOutput(new PrintWriter(new StringWriter()), new PrintWriter(err), true);
        o.status("  down (3 s): pve-3090 does not answer");
        o.status("  down (6 s): pve-3090 does not answer");
        o.error("  back (9 s): pve-3090 is back");
        assertThat(err.toString()).isEqualTo("\r  down (3 s): pve-3090 does not answer\u001b[K"
                + "\r  down (6 s): pve-3090 does not answer\u001b[K\r\u001b[K  back (9 s): pve-3090 is back"
                + System.lineSeparator());
    }

    @Test
    void inALogTheStatusIsLeftOut() {
        StringWriter err = new StringWriter();
        CliOutput o = new CliOutput(new PrintWriter(new StringWriter()), new PrintWriter(err));
        o.status("  down (3 s): pve-3090 does not answer");
        o.error("  back (9 s): pve-3090 is back");
        assertThat(err.toString()).isEqualTo("  back (9 s): pve-3090 is back" + System.lineSeparator());
    }

    @Test
    void aStatusFromTheHostCannotSmuggleEscapeSequences() {
        StringWriter err = new StringWriter();
        CliOutput o = new CliOutput(new PrintWriter(new StringWriter()), new PrintWriter(err), true);
        o.status("down: \u001b]0;owned\u0007");
        assertThat(err.toString()).startsWith("\r").endsWith("\u001b[K").doesNotContain("\u001b]0;");
    }
}
