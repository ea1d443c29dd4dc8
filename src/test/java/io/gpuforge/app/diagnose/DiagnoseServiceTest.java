package io.gpuforge.app.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.LogSource;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Logs as files and streams: read within their bounds, and what is not a log refused in one line. */
class DiagnoseServiceTest {

    private static final io.gpuforge.app.words.Words EN =
            new io.gpuforge.app.words.Words(java.util.Locale.ENGLISH);

    @TempDir
    Path dir;

    private final DiagnoseService service = new DiagnoseService();
    private static final Supplier<InputStream> NO_STDIN = () -> InputStream.nullInputStream();
    private static final String SLOT = "kvm: -device vfio-pci,host=00:02.0,addr=0x02: PCI: slot 2 function 0 not"
            + " available for vfio-pci, in use by VGA\n";

    @Test
    void aFiftyMegabyteLogIsReadFromItsEndAndTheRestNamedAsSkipped() throws Exception {
        Path big = dir.resolve("journal.txt");
        String filler = "Dec 05 10:00:00 pve kernel: usb 1-1: new high-speed USB device number 2 using xhci_hcd\n";
        try (OutputStream out = Files.newOutputStream(big)) {
            byte[] line = filler.getBytes(StandardCharsets.UTF_8);
            for (long written = 0; written < 50L * 1024 * 1024; written += line.length) {
                out.write(line);
            }
            out.write(SLOT.getBytes(StandardCharsets.UTF_8));
        }
        Diagnosis d = service.files(List.of(big.toString()), NO_STDIN);
        assertThat(d.cause()).isEqualTo("vga-slot-conflict");
        Collected c = d.collected().get(0);
        assertThat(c.bytesRead()).isEqualTo(DiagnoseService.maxBytes());
        assertThat(c.bytesSkipped()).isEqualTo(Files.size(big) - DiagnoseService.maxBytes());
        assertThat(c.source()).isEqualTo(LogSource.KERNEL_LOG);
    }

    @Test
    void whatIsNotATextLogIsRefusedInOneLineAndTheOthersStillRead() throws Exception {
        byte[] noise = new byte[4096];
        new Random(7).nextBytes(noise);
        noise[10] = 0;
        Path binary = Files.write(dir.resolve("vmlinuz"), noise);
        Path log = Files.writeString(dir.resolve("task.log"), SLOT);
        Diagnosis d = service.files(List.of(dir.toString(), binary.toString(), dir.resolve("nope.log").toString(),
                log.toString()), NO_STDIN);
        assertThat(d.cause()).isEqualTo("vga-slot-conflict");
        assertThat(d.collected()).extracting(c -> c.problem().map(EN::text).orElse("read")).containsExactly(
                dir + " is a directory: give a log file",
                binary + " is not a text log (binary data: " + nuls(noise) + " NUL and " + controls(noise) + " control bytes in its"
                        + " first 4,096): give the log as text",
                dir.resolve("nope.log") + ": no such file",
                "read");
        assertThat(d.collected()).allMatch(c -> c.problem().map(p -> !EN.text(p).contains("\n")).orElse(true));
    }

    @Test
    void anEmptyFileIsUnknownBecauseItIsEmpty() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.log"));
        Diagnosis d = service.files(List.of(empty.toString()), NO_STDIN);
        assertThat(d.cause()).isEqualTo("unknown");
        assertThat(d.reason().map(EN::text)).contains("the log is empty");
        Diagnosis none = service.files(List.of(dir.toString()), NO_STDIN);
        assertThat(none.reason().map(EN::text)).contains("nothing could be read");
    }

    @Test
    void stdinIsReadOnceAndOnlyUpToTheLimit() {
        DiagnoseService small = new DiagnoseService(1024);
        String text = SLOT + "x".repeat(5000) + "\n";
        int[] opened = {0};
        Diagnosis d = small.files(List.of("-", "-"), () -> {
            opened[0]++;
            return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
        });
        assertThat(opened[0]).isEqualTo(1);
        assertThat(d.cause()).isEqualTo("vga-slot-conflict");
        assertThat(d.collected()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("stdin");
            assertThat(c.bytesRead()).isEqualTo(1024);
            assertThat(c.bytesSkipped()).isPositive();
        });
    }

    @Test
    void terminalColoursAreDroppedAndMoreThanTheMostLogsRefused() throws Exception {
        Path colour = Files.writeString(dir.resolve("dmesg.txt"),
                "\u001b[32m[ 12.5]\u001b[0m vfio-pci 0000:01:00.0: \u001b[1mgroup 1 is not viable\u001b[0m\n");
        Diagnosis d = service.files(List.of(colour.toString()), NO_STDIN);
        assertThat(d.cause()).isEqualTo("group-not-viable");
        assertThat(d.causes().get(0).evidence().get(0).text()).isEqualTo("[ 12.5] vfio-pci 0000:01:00.0: group 1 is not"
                + " viable");
        assertThatThrownBy(() -> service.files(Collections.nCopies(DiagnoseService.MAX_LOGS + 1, colour.toString()),
                NO_STDIN)).hasMessage("at most 32 logs at once, not 33");
    }

    @Test
    void pastedTextOverTheLimitKeepsItsEnd() {
        DiagnoseService small = new DiagnoseService(2048);
        Diagnosis d = small.pasted("noise line\n".repeat(1000) + SLOT);
        assertThat(d.cause()).isEqualTo("vga-slot-conflict");
        assertThat(d.collected().get(0).bytesSkipped()).isPositive();
    }

    @Test
    void theWindowGetsAFilesTextOrItsOneLineReason() throws Exception {
        Path log = Files.writeString(dir.resolve("dmesg.txt"), "\u001b[31m[ 1.0] hello\u001b[0m\n");
        assertThat(service.text(log)).isEqualTo("[ 1.0] hello\n");
        assertThatThrownBy(() -> service.text(dir)).isInstanceOf(java.io.IOException.class)
                .hasMessage(dir + " is a directory: give a log file");
    }

    private static long nuls(byte[] bytes) {
        int n = 0;
        for (byte b : bytes) {
            n += b == 0 ? 1 : 0;
        }
        return n;
    }

    private static int controls(byte[] bytes) {
        int n = 0;
        for (byte b : bytes) {
            int v = b & 0xff;
            if (v != 0 && v < 0x20 && v != '\n' && v != '\r' && v != '\t' && v != '\f' && v != 0x1b) {
                n++;
            }
        }
        return n;
    }
}
