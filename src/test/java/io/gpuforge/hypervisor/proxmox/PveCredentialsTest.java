package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Credentials end up in log lines and error messages through toString(): the secret must not. */
class PveCredentialsTest {

    private static final String SECRET = "5f0c7c3e-2b1d-4d7a-9c55-0e3f1a2b3c4d";

    @Test
    void aTokenPrintsItsIdButNotItsSecret() {
        PveCredentials.Token t = new PveCredentials.Token("root@pam!gpuforge", SECRET);
        assertThat(t.toString()).contains("root@pam!gpuforge").doesNotContain(SECRET).doesNotContain("5f0c");
        assertThat(String.valueOf(Optional.of(t))).doesNotContain(SECRET);
        PveCredentials.Token parsed = PveCredentials.Token.parse("root@pam!gpuforge=" + SECRET);
        assertThat(parsed.toString()).doesNotContain(SECRET);
        assertThat(parsed).isEqualTo(t);
        assertThat(parsed.header()).isEqualTo("PVEAPIToken=root@pam!gpuforge=" + SECRET);
    }

    @Test
    void aPasswordPrintsTheUserButNotThePassword() {
        PveCredentials.Password p = new PveCredentials.Password("root@pam", "hunter2-very-secret".toCharArray());
        assertThat(p.toString()).contains("root@pam").doesNotContain("hunter2").doesNotContain("[C@");
        PveCredentials.Password withTotp = new PveCredentials.Password("alice@pve", "hunter2-very-secret".toCharArray(),
                Optional.of(() -> "123456"));
        assertThat(withTotp.toString()).contains("alice@pve").doesNotContain("hunter2").doesNotContain("123456");
    }

    @Test
    void aTokenPastedWholeIntoTheIdFieldIsRefusedWithoutEchoingTheSecret() {
        assertThatThrownBy(() -> new PveCredentials.Token("root@pam!gpuforge=" + SECRET, SECRET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("USER@REALM!TOKENID")
                .hasMessageContaining("root@pam!gpuforge")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> PveCredentials.Token.parse(SECRET)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining(SECRET);
    }

    @Test
    void tokenIdsAreCheckedByTheirShape() {
        assertThat(PveCredentials.Token.isValidId("root@pam!gpuforge")).isTrue();
        assertThat(PveCredentials.Token.isValidId("svc@pve!inventory-ro.1")).isTrue();
        assertThat(PveCredentials.Token.isValidId("root@pam")).isFalse();
        assertThat(PveCredentials.Token.isValidId("root@pam!")).isFalse();
        assertThat(PveCredentials.Token.isValidId("root@pam!t=x")).isFalse();
        assertThat(PveCredentials.Token.isValidId(null)).isFalse();
    }
}
