package io.gpuforge.app.connections;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.HostLink;
import io.gpuforge.store.ConnectionRepository;
import io.gpuforge.store.Database;
import io.gpuforge.store.HostLinkRepository;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostLinksTest {

    private static ConnectionInfo libvirt(String uri) {
        return new ConnectionInfo(7, "kvm", ConnectionInfo.Kind.LIBVIRT, uri, "", Optional.empty());
    }

    @ParameterizedTest
    @CsvSource({
        "qemu:///system, local",
        "qemu:///session, local",
        "qemu+ssh://root@gpu1/system, adhoc:root@gpu1",
        "qemu+ssh://admin@gpu1:2222/system, adhoc:admin@gpu1:2222",
        "qemu+ssh://gpu1/system?keyfile=/k, adhoc:gpu1",
        "qemu+tls://gpu2.lab/system, adhoc:gpu2.lab",
    })
    void aLibvirtUriTellsWhichHostDoesTheHostWork(String uri, String expected) {
        assertThat(HostLinks.guess(libvirt(uri), List.of())).map(HostLink.Target::key).contains(expected);
    }

    @Test
    void theTestDriverHasNoHostAndAProxmoxNodeNoneUntilLinked() {
        assertThat(HostLinks.guess(libvirt("test:///default"), List.of())).isEmpty();
        assertThat(HostLinks.guess(new ConnectionInfo(3, "pve", ConnectionInfo.Kind.PROXMOX, "https://pve:8006",
                "root@pam!x", Optional.of("ref")), List.of())).isEmpty();
    }

    @Test
    void aSavedSshHostForTheSameUserAndHostIsPreferredToAnAdhocLogin() {
        ConnectionInfo saved = new ConnectionInfo(12, "gpu1 ssh", ConnectionInfo.Kind.SSH, "gpu1", "root", Optional.empty());
        ConnectionInfo other = new ConnectionInfo(13, "gpu1 as admin", ConnectionInfo.Kind.SSH, "gpu1", "admin",
                Optional.empty());
        assertThat(HostLinks.guess(libvirt("qemu+ssh://root@gpu1/system"), List.of(other, saved)))
                .contains(new HostLink.SavedSsh(12));
        assertThat(HostLinks.guess(saved, List.of(saved))).contains(new HostLink.SavedSsh(12));
    }

    @Test
    void aLinkTheUserMadeIsKeptWinsOverTheGuessAndGoesWithItsConnection(@TempDir Path dir) throws Exception {
        try (Database db = Database.open(dir.resolve("g.db"))) {
            ConnectionRepository repo = new ConnectionRepository(db);
            ConnectionInfo pve = repo.add(new ConnectionInfo(0, "lab", ConnectionInfo.Kind.PROXMOX, "https://pve:8006",
                    "root@pam!gf", Optional.empty()));
            ConnectionInfo ssh = repo.add(new ConnectionInfo(0, "pve-4090 root", ConnectionInfo.Kind.SSH, "10.0.0.5",
                    "root", Optional.empty()));
            ConnectionsService connections = new ConnectionsService(repo, null);
            HostLinks links = new HostLinks(new HostLinkRepository(db), connections);
            assertThat(links.of(pve, "pve-4090")).isEmpty();
            links.link(pve, "pve-4090", new HostLink.SavedSsh(ssh.id()));
            assertThat(links.of(pve, "pve-4090")).hasValueSatisfying(l -> {
                assertThat(l.target()).isEqualTo(new HostLink.SavedSsh(ssh.id()));
                assertThat(l.guessed()).isFalse();
            });
            assertThat(links.of(pve, "pve-3090")).isEmpty();
            links.link(pve, "pve-4090", new HostLink.Local());
            assertThat(links.of(pve, "pve-4090")).map(HostLink::target).contains(new HostLink.Local());
            repo.delete(pve.id());
            assertThat(new HostLinkRepository(db).of(pve.id())).isEmpty();
        }
    }
}
