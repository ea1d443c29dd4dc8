package io.gpuforge.app.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.domain.diagnose.LogSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads one log with bounds: at most {@link #MAX_BYTES} of it (of a file its end, where a failed start is; of a
 * stream its start, never more), refusing what is not a text log (a directory, binary data) with a one-line reason,
 * and dropping terminal colour codes ({@code journalctl}, {@code dmesg --color}).
 */
final class LogReader {

    /** At most this much of each log is read: 8 MiB, some 80,000 lines of a kernel log. */
    static final int MAX_BYTES = 8 * 1024 * 1024;

    private static final Pattern ANSI = Pattern.compile("\u001b\\[[0-9;?]*[a-zA-Z]");

    /** A log as read, or why it could not be. */
    record Read(Optional<LogInput> input, Collected collected) {
    }

    /** How long a pipe, device or {@code /proc} file may take to give its text. */
    static final java.time.Duration STREAM_WAIT = java.time.Duration.ofSeconds(10);

    private final int maxBytes;
    private final java.time.Duration streamWait;

    LogReader(int maxBytes) {
        this(maxBytes, STREAM_WAIT);
    }

    LogReader(int maxBytes, java.time.Duration streamWait) {
        this.maxBytes = maxBytes;
        this.streamWait = streamWait;
    }

    Read file(Path path) {
        String name = path.toString();
        try {
            if (Files.isDirectory(path)) {
                return failed(name, Message.of("read.directory", name));
            }
            java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(path,
                    java.nio.file.attribute.BasicFileAttributes.class);
            if (!a.isRegularFile() || a.size() == 0) {
                // a pipe (<(journalctl -k)), a device, a /proc file that says it is empty: read as a stream, in time
                return streamed(path, name);
            }
            long size = a.size();
            try (SeekableByteChannel ch = Files.newByteChannel(path)) {
                long skip = Math.max(0, size - maxBytes);
                ch.position(skip);
                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(size, maxBytes));
                while (buf.hasRemaining() && ch.read(buf) > 0) {
                    // read until full or the end
                }
                byte[] bytes = new byte[buf.position()];
                buf.flip().get(bytes);
                return text(name, bytes, skip, skip > 0);
            }
        } catch (NoSuchFileException e) {
            return failed(name, Message.of("read.noFile", name));
        } catch (AccessDeniedException e) {
            return failed(name, Message.of("read.denied", name));
        } catch (IOException e) {
            return failed(name, Message.of("read.error", name, String.valueOf(e.getMessage())));
        }
    }

    /**
     * What is not a plain file with a size, read from its start within {@link #streamWait}: a FIFO nobody writes to
     * blocks its opening for ever, so the read runs on a thread of its own and is given up (the thread left to the
     * process's end) with a reason.
     */
    private Read streamed(Path path, String name) {
        java.util.concurrent.CompletableFuture<Read> read = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (InputStream in = Files.newInputStream(path)) {
                read.complete(stream(name, in));
            } catch (IOException | RuntimeException e) {
                read.complete(failed(name, Message.of("read.error", name, String.valueOf(e.getMessage()))));
            }
        }, "gpuforge-log-read");
        t.setDaemon(true);
        t.start();
        try {
            return read.get(streamWait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            t.interrupt();
            return failed(name, Message.of("read.silent", name, streamWait.toSeconds()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(name, Message.of("read.interrupted", name));
        } catch (java.util.concurrent.ExecutionException e) {
            return failed(name, Message.of("read.error", name, String.valueOf(e.getCause().getMessage())));
        }
    }

    /** The start of a stream, at most the limit; the rest is left unread (and said so). */
    Read stream(String name, InputStream in) {
        try {
            byte[] bytes = in.readNBytes(maxBytes);
            long more = in.read() >= 0 ? 1 : 0;
            return text(name, bytes, more, false);
        } catch (IOException e) {
            return failed(name, Message.of("read.error", name, String.valueOf(e.getMessage())));
        }
    }

    /** Text already in memory (the window's paste), its end kept when over the limit. */
    Read pasted(String name, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long skip = Math.max(0, bytes.length - maxBytes);
        byte[] kept = skip == 0 ? bytes : java.util.Arrays.copyOfRange(bytes, (int) skip, bytes.length);
        return text(name, kept, skip, skip > 0);
    }

    private Read text(String name, byte[] bytes, long skipped, boolean cutAtStart) {
        int nul = 0;
        int control = 0;
        int sample = Math.min(bytes.length, 65_536);
        for (int i = 0; i < sample; i++) {
            int b = bytes[i] & 0xff;
            if (b == 0) {
                nul++;
            } else if (b < 0x20 && b != '\n' && b != '\r' && b != '\t' && b != '\f' && b != 0x1b) {
                control++;
            }
        }
        if (nul > 0 || (sample > 0 && control * 10 > sample)) {
            return failed(name, Message.of("read.binary", name, nul, control, sample));
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return failed(name, Message.of("read.error", name, String.valueOf(e.getMessage())));
        }
        if (cutAtStart) {
            int nl = text.indexOf('\n');
            text = nl >= 0 ? text.substring(nl + 1) : text;
        }
        text = ANSI.matcher(text).replaceAll("");
        int lines = text.isEmpty() ? 0 : (int) text.lines().count();
        return new Read(Optional.of(LogInput.of(name, text)),
                new Collected(name, Message.of("log.named", name), LogSource.PASTED, bytes.length, skipped, lines,
                        Optional.empty(), 0));
    }

    private static Read failed(String name, Message problem) {
        return new Read(Optional.empty(), Collected.failed(name, Message.of("log.named", name), problem));
    }
}
