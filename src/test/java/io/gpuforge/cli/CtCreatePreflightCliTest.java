package io.gpuforge.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpuforge ct create --with-host-plan} refuses what Proxmox VE would refuse before the GPU's host plan changes
 * anything: the Demo lab's host still needs its plan afterwards (it remembers across commands).
 */
class CtCreatePreflightCliTest {

    private static final String GPU = "0000:04:00.0";
    private static final String TEMPLATE = "local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst";

    @TempDir
    Path home;

    @Test
    void aContainerProxmoxWouldRefuseLeavesTheHostAsItWas() {
        CliHarness cli = new CliHarness(home);
        assertThat(cli.run(new String[] {"connection", "add", "Demo lab", "--demo"})).as(cli.err()).isZero();
        String[] at = {"--connection", "Demo lab", "--node", "pve-3090", "--gpu", GPU, "--with-host-plan", "--yes"};

        assertThat(cli.run(with(at, "ct", "create", "--name", "cuda-x", "--template", "local:vztmpl/no-such.tar.zst")))
                .isEqualTo(1);
        assertThat(cli.err()).contains("refused, nothing changed").contains("no template local:vztmpl/no-such.tar.zst"
                + " on pve-3090");
        assertThat(cli.out()).as("no host plan offered or applied").doesNotContain("+ExecStart");

        assertThat(cli.run(with(at, "ct", "create", "--name", "cuda_x", "--template", TEMPLATE))).isEqualTo(2);
        assertThat(cli.err()).contains("not a host name: cuda_x");
        // a comma would add Proxmox VE options of its own to net0= or rootfs=
        assertThat(cli.run(with(at, "ct", "create", "--name", "cuda-x", "--template", TEMPLATE, "--bridge",
                "vmbr0,tag=5,firewall=0"))).isEqualTo(2);
        assertThat(cli.err()).contains("not a bridge name").contains("vmbr0,tag=5,firewall=0");
        assertThat(cli.run(with(at, "ct", "create", "--name", "cuda-x", "--template", TEMPLATE, "--storage",
                "local-lvm,mp=/mnt"))).isEqualTo(2);
        assertThat(cli.err()).contains("not a storage id").contains("local-lvm,mp=/mnt");
        assertThat(cli.out()).as("no host plan offered or applied").doesNotContain("+ExecStart");
        assertThat(cli.run(with(at, "ct", "create", "--name", "cuda-x", "--template", TEMPLATE, "--vmid", "201",
                "--storage", "nowhere"))).isEqualTo(1);
        assertThat(cli.err()).contains("refused, nothing changed").contains("id 201 is a container's on pve-3090")
                .contains("no storage 'nowhere' for container disks on pve-3090");

        assertThat(cli.run(new String[] {"share", "check", "--connection", "Demo lab", "--node", "pve-3090", "--gpu",
                GPU}))
                .as("the host still needs its plan: nothing was applied").isEqualTo(3);
        assertThat(cli.run(new String[] {"rollback", "--connection", "Demo lab", "--node", "pve-3090", "--status"}))
                .isZero();
        assertThat(cli.out()).contains("No plan applied by GPUForge on Demo lab/pve-3090.");
    }

    private static String[] with(String[] target, String... command) {
        String[] all = new String[command.length + target.length];
        System.arraycopy(command, 0, all, 0, command.length);
        System.arraycopy(target, 0, all, command.length, target.length);
        return all;
    }
}
