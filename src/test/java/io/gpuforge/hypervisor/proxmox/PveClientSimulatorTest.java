package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.Isolation;
import io.gpuforge.domain.pci.PciAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import okhttp3.FormBody;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The PVE client against the simulated cluster over real loopback HTTPS. */
class PveClientSimulatorTest {

    private PveSimulator sim;
    private String pin;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        PveClient probe = new PveClient(sim.url(), PveCredentials.Token.parse(sim.token()), Optional.empty(), PveContract.load());
        assertThatThrownBy(() -> probe.get("/version", Map.of())).isInstanceOf(PveApiException.class)
                .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.TLS))
                .hasMessageContaining("not trusted by this system");
        pin = probe.serverFingerprint().orElseThrow();
        assertThat(pin).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
    }

    @AfterEach
    void stop() {
        sim.close();
    }

    private PveClient tokenClient() throws PveApiException {
        return new PveClient(sim.url(), PveCredentials.Token.parse(sim.token()), Optional.of(pin), PveContract.load());
    }

    @Test
    void tokenAuthAndTheInventoryCalls() throws Exception {
        PveClient c = tokenClient();
        assertThat(c.get("/version", Map.of()).get("release").asText()).isEqualTo("8.4");
        JsonNode res = c.get("/cluster/resources", Map.of());
        assertThat(res).as("3 nodes, 6 VMs (the template and four whose start fails among them), the container"
                + " media-01").hasSize(3 + 6 + 1);
        assertThat(c.get("/cluster/resources", Map.of("type", "node"))).hasSize(3);
        JsonNode pci = c.get("/nodes/pve-3090/hardware/pci", Map.of("pci-class-blacklist", ""));
        assertThat(pci.toString()).contains("\"class\":\"0x060400\"");
        assertThat(c.get("/nodes/pve-3090/hardware/pci", Map.of()).toString()).as("bridges hidden by default")
                .doesNotContain("0x060400");
        JsonNode store = c.get("/nodes/pve-store/hardware/pci", Map.of("pci-class-blacklist", ""));
        assertThat(store.get(0).get("iommugroup").asInt()).as("IOMMU off").isEqualTo(-1);
        assertThat(c.get("/cluster/mapping/pci", Map.of()).get(0).get("id").asText()).isEqualTo("gpu-4090-a");
        assertThat(c.get("/cluster/nextid", Map.of()).asText()).isEqualTo("100");
        assertThat(c.requestCount()).isEqualTo(8);
    }

    @Test
    void theWholeClusterInFourRequests() throws Exception {
        PveClient c = tokenClient();
        PveInventory inv = PveInventory.read(c);
        assertThat(c.requestCount()).isEqualTo(4);
        assertThat(inv.version()).isEqualTo("8.4.1");
        assertThat(inv.clusterName()).isEqualTo("gpuforge-demo");
        assertThat(inv.nodes()).extracting(PveInventory.Node::name).containsExactly("pve-4090", "pve-3090", "pve-store");
        assertThat(inv.vms()).extracting(PveInventory.Vm::vmid).containsExactly(101, 120, 121, 122, 124, 9000);
        assertThat(inv.vms().get(5).template()).isTrue();
        assertThat(inv.vms().get(0).maxMemBytes()).isEqualTo(65536L * 1024 * 1024);
        assertThat(inv.gpus()).extracting(PveInventory.GpuMapping::id)
                .containsExactly("gpu-4090-a", "llm-3090", "render-3090");
        assertThat(inv.gpus().get(0)).satisfies(g -> {
            assertThat(g.node()).isEqualTo("pve-4090");
            assertThat(g.path()).isEqualTo("0000:01:00");
            assertThat(g.ids()).isEqualTo("10de:2684");
            assertThat(g.iommuGroup()).contains(12);
        });
    }

    /**
     * The password is used once, for the first ticket, and wiped; the ticket is renewed with itself before its two
     * hours end (the simulator's tickets expire as PVE's do), so the session outlives the first ticket without the
     * password. A ticket left to expire (a machine asleep) asks for a new connection instead of a password it no
     * longer has.
     */
    @Test
    void aPasswordSessionOutlivesItsFirstTicketWithoutKeepingThePassword() throws Exception {
        Instant t0 = Instant.parse("2026-11-29T10:00:00Z");
        io.gpuforge.testing.MovableClock clock = new io.gpuforge.testing.MovableClock(t0);
        sim.useClock(clock);
        char[] password = sim.password().toCharArray();
        PveClient c = new PveClient(sim.url(), new PveCredentials.Password("root@pam", password), Optional.of(pin),
                PveContract.load());
        c.useClock(clock);
        c.get("/nodes", Map.of());
        c.get("/version", Map.of());
        assertThat(c.logins()).isEqualTo(1);
        assertThat(c.passwordDropped()).isTrue();
        assertThat(new String(password)).as("wiped once the ticket is there").matches("\\x00+");
        clock.set(t0.plus(Duration.ofMinutes(99)));
        c.get("/nodes", Map.of());
        assertThat(c.renewals()).as("still valid").isZero();
        clock.set(t0.plus(Duration.ofMinutes(101)));
        c.get("/nodes", Map.of());
        assertThat(c.renewals()).as("renewed before the 2 h expiry, with the ticket").isEqualTo(1);
        clock.set(t0.plus(Duration.ofMinutes(150)));
        assertThat(c.get("/nodes", Map.of())).as("past the first ticket's 2 h").hasSize(3);
        c.put("/nodes/pve-4090/qemu/101/config", Map.of("description", "renewed")); // a write: the CSRF token came along
        assertThat(sim.passwordLogins()).as("the password was sent once").isEqualTo(1);
        assertThat(sim.ticketRenewals()).isEqualTo(1);

        clock.set(t0.plus(Duration.ofHours(6))); // asleep: the renewed ticket expired too
        assertThatThrownBy(() -> c.get("/nodes", Map.of())).isInstanceOf(PveApiException.class)
                .hasMessageContaining("has expired").hasMessageContaining("does not keep the password")
                .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.AUTH));
        assertThat(sim.passwordLogins()).isEqualTo(1);
    }

    /** The Demo lab's password is its own per run, not a fixed one any local user could read in the sources. */
    @Test
    void theSimulatorsPasswordIsItsOwnPerRun() throws Exception {
        try (PveSimulator other = new PveSimulator(SimCluster.demo())) {
            assertThat(other.password()).isNotEqualTo(sim.password()).hasSizeGreaterThan(20);
        }
        PveClient fixed = new PveClient(sim.url(), new PveCredentials.Password("root@pam", "demo-password".toCharArray()),
                Optional.of(pin), PveContract.load());
        assertThatThrownBy(() -> fixed.get("/nodes", Map.of())).isInstanceOf(PveApiException.class)
                .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.AUTH));
    }

    @Test
    void theTotpChallengeStep() throws Exception {
        PveClient withCode = new PveClient(sim.url(), new PveCredentials.Password(PveSimulator.TFA_USER,
                sim.password().toCharArray(), Optional.of(() -> PveSimulator.TOTP_CODE)), Optional.of(pin),
                PveContract.load());
        assertThat(withCode.get("/nodes", Map.of())).hasSize(3);
        PveClient noCode = new PveClient(sim.url(), new PveCredentials.Password(PveSimulator.TFA_USER,
                sim.password().toCharArray()), Optional.of(pin), PveContract.load());
        assertThatThrownBy(() -> noCode.get("/nodes", Map.of())).hasMessageContaining("second factor");
        PveClient wrongCode = new PveClient(sim.url(), new PveCredentials.Password(PveSimulator.TFA_USER,
                sim.password().toCharArray(), Optional.of(() -> "000000")), Optional.of(pin), PveContract.load());
        assertThatThrownBy(() -> wrongCode.get("/nodes", Map.of())).isInstanceOf(PveApiException.class)
                .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.AUTH));
    }

    @Test
    void sshKeysAreEncodedTwice() throws Exception {
        String keys = "ssh-ed25519 AAAAC3Nza+C1lZDI1NTE5 ada@lab\nssh-rsa AAAAB3/x= bob@lab";
        String once = PveValues.sshKeys(keys);
        assertThat(once).doesNotContain(" ").doesNotContain("+").contains("%20").contains("%2B").contains("%0A");
        PveClient c = tokenClient();
        String digest = c.get("/nodes/pve-4090/qemu/101/config", Map.of()).get("digest").asText();
        c.put("/nodes/pve-4090/qemu/101/config", Map.of("digest", digest, "sshkeys", once));
        assertThat(URLDecoder.decode(c.get("/nodes/pve-4090/qemu/101/config", Map.of()).get("sshkeys").asText()
                .replace("+", "%2B"), StandardCharsets.UTF_8)).isEqualTo(keys);
    }

    @Test
    void pciDevicesAndGroupsOfANode() throws Exception {
        PveClient c = tokenClient();
        PvePci.NodePci n = PvePci.read(c, "pve-3090");
        assertThat(n.iommu()).isEqualTo(IommuState.ENABLED);
        var gpus = n.inventory().gpus();
        assertThat(gpus).hasSize(4);
        assertThat(gpus.get(0).isolation()).as("the first 3090 shares group 2 with the root port")
                .isEqualTo(Isolation.SHARES_WITH_BRIDGES);
        assertThat(gpus.get(1).isolation()).isEqualTo(Isolation.ISOLATED);
        assertThat(gpus.get(3).isolation()).as("the chipset-slot 3090 shares with the USB controller")
                .isEqualTo(Isolation.SHARED);
        assertThat(gpus.get(3).sharedWith()).containsExactly(PciAddress.parse("0000:05:00.0"));
        assertThat(n.inventory().device(PciAddress.parse("0000:01:00.0")).orElseThrow().name())
                .contains("NVIDIA Corporation GA102 [GeForce RTX 3090]");
        PvePci.NodePci off = PvePci.read(c, "pve-store");
        assertThat(off.iommu()).isEqualTo(IommuState.DISABLED);
        assertThat(off.inventory().groups()).isEmpty();
    }

    @Test
    void passwordTicketWithCsrfOnWritesAndStaleDigestIsAConflict() throws Exception {
        PveClient c = new PveClient(sim.url(), new PveCredentials.Password("root@pam", sim.password().toCharArray()),
                Optional.of(pin), PveContract.load());
        c.post("/cluster/mapping/pci", Map.of("id", "gpu-4090-b", "map", "node=pve-4090,path=0000:02:00,id=10de:2684"));
        JsonNode cfg = c.get("/nodes/pve-4090/qemu/101/config", Map.of());
        String digest = cfg.get("digest").asText();
        c.put("/nodes/pve-4090/qemu/101/config", Map.of("digest", digest, "balloon", "0", "hostpci1",
                "mapping=gpu-4090-b,pcie=1"));
        assertThat(c.get("/nodes/pve-4090/qemu/101/config", Map.of()).get("hostpci1").asText())
                .isEqualTo("mapping=gpu-4090-b,pcie=1");
        assertThatThrownBy(() -> c.put("/nodes/pve-4090/qemu/101/config", Map.of("digest", digest, "cores", "8")))
                .isInstanceOf(PveApiException.class)
                .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.CONFLICT))
                .hasMessageContaining("Someone else changed");

        PveClient wrong = new PveClient(sim.url(), new PveCredentials.Password("root@pam", "nope".toCharArray()),
                Optional.of(pin), PveContract.load());
        assertThatThrownBy(() -> wrong.get("/nodes", Map.of())).isInstanceOf(PveApiException.class)
                .satisfies(e -> assertThat(((PveApiException) e).status()).isEqualTo(401));
    }

    @Test
    void invalidRequestsNeverLeaveTheClient() throws Exception {
        PveClient c = tokenClient();
        int before = sim.requestCount();
        assertThatThrownBy(() -> c.get("/cluster/resources", Map.of("type", "container"))).isInstanceOf(PveApiException.class)
                .satisfies(e -> assertThat(((PveApiException) e).errors()).containsKey("type"));
        assertThatThrownBy(() -> c.get("/nodes/pve1/ceph/status", Map.of())).isInstanceOf(PveApiException.class)
                .satisfies(e -> assertThat(((PveApiException) e).kind()).isEqualTo(PveApiException.Kind.NOT_IMPLEMENTED));
        assertThat(sim.requestCount()).isEqualTo(before);
    }

    @Test
    void aChangedCertificateIsRefusedShowingBothFingerprints() throws Exception {
        sim.close();
        sim = new PveSimulator(SimCluster.demo(), "/demo/other-cert.p12");
        PveClient c = new PveClient(sim.url(), PveCredentials.Token.parse(sim.token()), Optional.of(pin), PveContract.load());
        assertThatThrownBy(() -> c.get("/version", Map.of())).isInstanceOf(PveApiException.class)
                .hasMessageContaining("certificate changed").hasMessageContaining(pin)
                .hasMessageContaining(c.serverFingerprint().orElseThrow());
        assertThat(c.serverFingerprint().orElseThrow()).isNotEqualTo(pin);
    }

    @Test
    void theSimulatorAnswersBadRequestsLikePve() throws Exception {
        OkHttpClient raw = rawClient();
        try (Response r = raw.newCall(new Request.Builder().url(sim.url()
                + "/api2/json/nodes/pve-4090/qemu/101/clone").header("Authorization", "PVEAPIToken=" + sim.token())
                .post(new FormBody.Builder().add("full", "maybe").build()).build()).execute()) {
            assertThat(r.code()).isEqualTo(400);
            String body = r.body().string();
            assertThat(body).contains("\"newid\"").contains("\"full\"").contains("\"data\":null");
        }
        try (Response r = raw.newCall(new Request.Builder().url(sim.url() + "/api2/json/nodes/pve-4090/ceph/status")
                .header("Authorization", "PVEAPIToken=" + sim.token()).build()).execute()) {
            assertThat(r.code()).isEqualTo(501);
        }
        try (Response r = raw.newCall(new Request.Builder().url(sim.url() + "/api2/json/nodes").build())
                .execute()) {
            assertThat(r.code()).isEqualTo(401);
        }
        // pveproxy's limit_max_post: a request body over 64 KiB is refused, not read into memory
        try (Response r = raw.newCall(new Request.Builder().url(sim.url() + "/api2/json/nodes/pve-4090/qemu/101/config")
                .header("Authorization", "PVEAPIToken=" + sim.token())
                .post(new FormBody.Builder().add("description", "x".repeat(70_000)).build()).build()).execute()) {
            assertThat(r.code()).isEqualTo(413);
        }
    }

    private OkHttpClient rawClient() throws Exception {
        PinnedTrust t = new PinnedTrust(Optional.of(pin));
        return new OkHttpClient.Builder().sslSocketFactory(t.sslContext().getSocketFactory(), t)
                .hostnameVerifier((h, session) -> {
                    try {
                        return pin.equals(PinnedTrust.fingerprint(
                                (X509Certificate) session.getPeerCertificates()[0]));
                    } catch (SSLPeerUnverifiedException e) {
                        return false;
                    }
                }).build();
    }
}
