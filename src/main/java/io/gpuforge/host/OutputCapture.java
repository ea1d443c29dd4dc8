package io.gpuforge.host;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One output stream of a running command, as it arrives: keeps at most {@code cap} bytes (the rest is dropped,
 * so a runaway command cannot fill the memory) and, with a relay, cuts the stream into lines for a listener.
 * Written by one reader thread, read by the caller.
 */
public final class OutputCapture extends OutputStream {

    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final int cap;
    private final LineRelay relay;
    private final boolean stderr;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    /** @param relay where lines go; null to keep the bytes only */
    public OutputCapture(int cap, LineRelay relay, boolean stderr) {
        this.cap = cap;
        this.relay = relay;
        this.stderr = stderr;
    }

    @Override
    public synchronized void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        int room = cap - kept.size();
        if (room > 0) {
            kept.write(b, off, Math.min(len, room));
        }
        if (relay == null) {
            return;
        }
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                emit();
            } else {
                line.write(b[i]);
                if (line.size() >= LineRelay.MAX_LINE) {
                    emit();
                }
            }
        }
    }

    private void emit() {
        String s = line.toString(StandardCharsets.UTF_8);
        line.reset();
        relay.offer(s.endsWith("\r") ? s.substring(0, s.length() - 1) : s, stderr);
    }

    /** The stream has ended: a last line without its line end is handed on too. */
    public synchronized void finish() {
        if (relay != null && line.size() > 0) {
            emit();
        }
    }

    public synchronized byte[] bytes() {
        return kept.toByteArray();
    }

    public synchronized String text() {
        return kept.toString(StandardCharsets.UTF_8);
    }
}
