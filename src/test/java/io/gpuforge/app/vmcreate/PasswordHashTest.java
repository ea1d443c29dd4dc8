package io.gpuforge.app.vmcreate;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.testing.Tools;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The VM password's SHA-512 crypt hash (Commons Codec's Sha2Crypt, a random salt): the same hash as OpenSSL makes. */
class PasswordHashTest {

    @Test
    void aHashIsWhatOpensslMakesForTheSameSaltAndEveryHashHasItsOwnSalt() throws Exception {
        Tools.require("openssl", "openssl");
        Random random = new Random(25);
        String alphabet = "abcXYZ019 !$'\"\\;:é中-_=+";
        for (int length : new int[] {1, 7, 63, 64, 65, 130}) {
            StringBuilder pw = new StringBuilder();
            for (int i = 0; i < length; i++) {
                pw.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String ours = PasswordHash.sha512Crypt(pw.toString().toCharArray());
            assertThat(PasswordHash.isSha512Crypt(ours)).as(ours).isTrue();
            String salt = ours.split("\\$")[2];
            assertThat(salt).hasSize(16);
            Process p = new ProcessBuilder("openssl", "passwd", "-6", "-salt", salt, "-stdin").start();
            p.getOutputStream().write((pw + "\n").getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String theirs = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(ours).as("length " + length).isEqualTo(theirs);
        }
        char[] same = "same password".toCharArray();
        assertThat(PasswordHash.sha512Crypt(same)).isNotEqualTo(PasswordHash.sha512Crypt(same));
    }

    @Test
    void aPastedHashIsKeptAndNoPasswordGivesNone() {
        String pasted = PasswordHash.sha512Crypt("x".toCharArray());
        assertThat(PasswordHash.of(pasted)).contains(pasted);
        assertThat(PasswordHash.of("")).isEmpty();
        assertThat(PasswordHash.of("hunter2").orElseThrow()).startsWith("$6$").doesNotContain("hunter2");
    }
}
