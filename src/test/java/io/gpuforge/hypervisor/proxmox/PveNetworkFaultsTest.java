package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import io.gpuforge.testing.TcpProxy;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Proxmox VE client against the simulator behind a faulty network: an answer held back, trickled a byte a
 * second, cut half way, reset, a 5xx from pveproxy, and another server (another certificate) behind the same
 * address. Each ends in its own error within the client's deadline (2.5 s without a byte of the answer, 5 s for the whole call here; 30 s
 * and 60 s in the product), and the next call after the fault reads again on a fresh connection; the changed
 * certificate is refused. What each fault gave, and how long it took, is printed for the closing note.
 */
class PveNetworkFaultsTest {

    private static final Duration READ = Duration.ofMillis(2500);
    /** The call's own deadline (twice the read timeout) and a margin for a loaded 2-core machine. */
    private static final long ENDS_WITHIN_MS = READ.multipliedBy(2).toMillis() + 4000;

    private PveSimulator sim;
    private PveSimulator other;
    private TcpProxy proxy;
    private PveClient client;

    @BeforeEach
    void start() throws Exception {
        sim = new PveSimulator(SimCluster.demo());
        proxy = new TcpProxy("127.0.0.1", port(sim));
        client = new PveClient(proxy.httpsUrl(), PveCredentials.Token.parse(sim.token()),
                Optional.of(sim.certificateFingerprint()), PveContract.load(), READ);
    }

    @AfterEach
    void stop() {
        proxy.close();
        sim.close();
        if (other != null) {
            other.close();
        }
    }

    private static int port(PveSimulator s) {
        return Integer.parseInt(s.url().substring(s.url().lastIndexOf(':') + 1));
    }

    private String version() throws PveApiException {
        return client.get("/version", Map.of()).get("version").asText();
    }

    /** Runs one call under {@code fault}; returns the error it ended in, after checking it ended in time. */
    private PveApiException under(TcpProxy.Fault fault) {
        proxy.fault(fault);
        long t0 = System.nanoTime();
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(this::version);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        proxy.fault(TcpProxy.Fault.NONE);
        assertThat(t).as(fault + " ends in an error").isInstanceOf(PveApiException.class);
        System.out.printf("fault %-8s -> %s in %,d ms: %s%n", fault, ((PveApiException) t).kind(), ms,
                t.getMessage());
        assertThat(ms).as(fault + " ends within the call's deadline").isLessThan(ENDS_WITHIN_MS);
        return (PveApiException) t;
    }

    @Test
    void eachFaultEndsInItsErrorWithinTheDeadlineAndTheNextCallReads() throws Exception {
        assertThat(version()).startsWith("8.");

        PveApiException stall = under(TcpProxy.Fault.STALL);
        assertThat(stall.kind()).isEqualTo(PveApiException.Kind.NETWORK);
        assertThat(stall.getMessage()).contains("GET /version").contains("no answer within 2500 ms");
        assertThat(version()).as("reads again after the stall").startsWith("8.");

        PveApiException trickle = under(TcpProxy.Fault.TRICKLE);
        assertThat(trickle.kind()).isEqualTo(PveApiException.Kind.NETWORK);
        // a TLS record trickled a byte a second gives no byte of the answer until it is whole: it reads as a stall
        assertThat(trickle.getMessage()).contains("GET /version").contains("no answer within 2500 ms");
        assertThat(version()).startsWith("8.");

        PveApiException half = under(TcpProxy.Fault.HALF);
        assertThat(half.kind()).as("a cut answer is a network fault, not a changed certificate")
                .isEqualTo(PveApiException.Kind.NETWORK);
        assertThat(version()).startsWith("8.");

        PveApiException reset = under(TcpProxy.Fault.RESET);
        assertThat(reset.kind()).isEqualTo(PveApiException.Kind.NETWORK);
        assertThat(version()).startsWith("8.");

        sim.outage(596, "Broken pipe");
        long t0 = System.nanoTime();
        assertThatThrownBy(this::version).isInstanceOf(PveApiException.class).satisfies(e -> {
            PveApiException p = (PveApiException) e;
            System.out.printf("fault %-8s -> %s in %,d ms: %s%n", "5xx", p.kind(), (System.nanoTime() - t0) / 1_000_000,
                    p.getMessage());
            assertThat(p.kind()).isEqualTo(PveApiException.Kind.SERVER);
            assertThat(p.status()).isEqualTo(596);
            assertThat(p.getMessage()).contains("Broken pipe");
        });
        sim.outage(0, null);
        assertThat(version()).startsWith("8.");
    }

    @Test
    void anotherCertificateBehindTheSameAddressIsRefusedMidSession() throws Exception {
        assertThat(version()).startsWith("8.");
        other = new PveSimulator(SimCluster.demo(), "/demo/other-cert.p12");
        proxy.retarget("127.0.0.1", port(other));
        proxy.cut(); // the open connection goes, as when the host was reinstalled and rebooted
        proxy.restore();
        long t0 = System.nanoTime();
        assertThatThrownBy(this::version).isInstanceOf(PveApiException.class).satisfies(e -> {
            PveApiException p = (PveApiException) e;
            System.out.printf("fault %-8s -> %s in %,d ms: %s%n", "cert", p.kind(), (System.nanoTime() - t0) / 1_000_000,
                    p.getMessage());
            assertThat(p.kind()).isEqualTo(PveApiException.Kind.TLS);
            assertThat(p.getMessage()).contains("certificate changed").contains(sim.certificateFingerprint())
                    .contains(other.certificateFingerprint());
        });
        assertThat(other.requestCount()).as("nothing was sent to the other server").isZero();
    }
}
