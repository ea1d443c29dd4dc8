package io.gpuforge.store.secret;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.Tools;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vault shared by real, separate GPUForge processes (the window and a CLI command, two windows). */
class VaultSecretStoreProcessTest {

    private static final String PASSPHRASE = "correct horse";

    @TempDir
    Path dir;

    @Test
    void twoProcessesAddingSecretsAtOnceBothKeepTheirs() throws Exception {
        Path file = dir.resolve("secrets.vault");
        new VaultSecretStore(file, 1000).create(PASSPHRASE.toCharArray());
        int count = 15;
        Child a = new Child(List.of(), file, "a", count);
        Child b = new Child(List.of(), file, "b", count);
        // both unlocked the same version of the file before either writes: the race of two open windows
        a.await("ready");
        b.await("ready");
        a.send("go");
        b.send("go");
        a.await("done");
        b.await("done");
        a.finish();
        b.finish();

        VaultSecretStore v = new VaultSecretStore(file, 1000);
        v.unlock(PASSPHRASE.toCharArray());
        List<String> missing = new ArrayList<>();
        for (String prefix : List.of("a", "b")) {
            for (int i = 0; i < count; i++) {
                String name = prefix + i;
                if (!v.get(name).map(c -> new String(c).equals("value-" + name)).orElse(false)) {
                    missing.add(name);
                }
            }
        }
        assertThat(missing).as("secrets lost by the other process's writes").isEmpty();
    }

    @Test
    void aWriteIsOnDiskBeforeTheRenameAndTheRenameIsOnDiskAfterIt() throws Exception {
        Tools.require("strace", "strace");
        Path file = dir.resolve("secrets.vault");
        new VaultSecretStore(file, 1000).create(PASSPHRASE.toCharArray());
        Path trace = dir.resolve("trace.txt");
        Child p = new Child(List.of("strace", "-f", "-y", "-qq", "-o", trace.toString(),
                "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", "-e", "signal=none"), file, "s", 1);
        p.await("ready");
        p.send("go");
        p.await("done");
        p.finish();

        List<String> lines = Files.readAllLines(trace);
        String d = Pattern.quote(dir.toRealPath().toString());
        int tmpSync = indexOf(lines, "f(?:data)?sync\\(\\d+<" + d + "/\\.secrets\\.vault-[^/>]*\\.tmp>\\) = 0");
        int rename = indexOf(lines, "rename(?:at2?)?\\(.*\\.secrets\\.vault-[^/\"]*\\.tmp\", .*\"" + d
                + "/secrets\\.vault\".*= 0");
        assertThat(tmpSync).as("fsync of the new vault file in:%n%s", String.join("\n", lines)).isNotNegative();
        assertThat(rename).as("rename over the vault in:%n%s", String.join("\n", lines)).isGreaterThan(tmpSync);
        assertThat(lastIndexOf(lines, "f(?:data)?sync\\(\\d+<" + d + ">\\) = 0"))
                .as("fsync of the directory after the rename in:%n%s", String.join("\n", lines)).isGreaterThan(rename);
    }

    private static int indexOf(List<String> lines, String regex) {
        Pattern p = Pattern.compile(regex);
        for (int i = 0; i < lines.size(); i++) {
            if (p.matcher(lines.get(i)).find()) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(List<String> lines, String regex) {
        Pattern p = Pattern.compile(regex);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (p.matcher(lines.get(i)).find()) {
                return i;
            }
        }
        return -1;
    }

    /** A child JVM running {@link VaultWriterMain}, with its stdout read line by line. */
    private final class Child {
        final Process process;
        final BufferedReader out;
        final Path stderr;

        Child(List<String> wrapper, Path file, String prefix, int count) throws IOException {
            List<String> cmd = new ArrayList<>(wrapper);
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(List.of("-XX:-UsePerfData", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                    VaultWriterMain.class.getName(), file.toString(), prefix, String.valueOf(count)));
            stderr = dir.resolve(prefix + ".stderr");
            process = new ProcessBuilder(cmd).redirectError(stderr.toFile()).start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            send(PASSPHRASE);
        }

        void send(String line) throws IOException {
            OutputStream in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        void await(String expected) throws IOException {
            String line = out.readLine();
            if (!expected.equals(line)) {
                process.destroyForcibly();
                throw new AssertionError("the vault process said " + line + " instead of " + expected
                        + "; its stderr: " + Files.readString(stderr));
            }
        }

        void finish() throws InterruptedException {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the vault process ends").isTrue();
            assertThat(process.exitValue()).isZero();
        }
    }
}
