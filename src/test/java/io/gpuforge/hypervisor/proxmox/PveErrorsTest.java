package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gpuforge.domain.BackendException;
import io.gpuforge.testing.SharedFixtures;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client's failures as the seam's kinds, with PVE's real answers (status line as the reason). */
class PveErrorsTest {

    private static PveApiException server(int status, String reason) {
        return new PveApiException(PveApiException.Kind.SERVER, status, "Proxmox VE answered " + status + " " + reason,
                Map.of(), null);
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "500|detected modified configuration - file changed by other user? Try again.|CONFLICT",
            "500|VM 777: detected modified configuration - file changed by other user? Try again.|CONFLICT",
            "500|Configuration file 'nodes/pve1/qemu-server/99999.conf' does not exist|NOT_FOUND",
            "500|no such node 'pve9'|NOT_FOUND",
            "500|PCI device mapping not found for 'gpu-x'|NOT_FOUND",
            "403|Permission check failed (/vms/101, VM.PowerMgmt)|AUTH",
            "595|Errors during connection establishment, proxy handler: Connection refused|NETWORK",
            "596|Connection timed out|NETWORK",
            "500|VM 101 is running - destroy failed|FAILED",
            "500|only root can set 'hostpci0' config for non-mapped devices|FAILED"})
    void pveRefusalsByTheirReason(int status, String reason, BackendException.Kind kind) {
        BackendException e = PveErrors.map(server(status, reason));
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.getMessage()).as("the user reads PVE's reason").contains(reason);
        assertThat(e.getCause()).isInstanceOf(PveApiException.class);
    }

    @Test
    void theClientsOwnKinds() {
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.TLS, 0, "The server's certificate changed",
                Map.of(), null)).kind()).isEqualTo(BackendException.Kind.TLS);
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.AUTH, 401, "Proxmox VE answered 401"
                + " authentication failure", Map.of(), null)).kind()).isEqualTo(BackendException.Kind.AUTH);
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.CONFLICT, 500, "Someone else changed",
                Map.of(), null)).kind()).isEqualTo(BackendException.Kind.CONFLICT);
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.NOT_IMPLEMENTED, 501, "Method 'GET /x' not"
                + " implemented", Map.of(), null)).kind()).isEqualTo(BackendException.Kind.UNSUPPORTED);
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.PROTOCOL, 200, "The server's answer is not JSON",
                Map.of(), null)).kind()).isEqualTo(BackendException.Kind.PROTOCOL);
    }

    @Test
    void aTimeoutIsNotJustANetworkError() {
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.NETWORK, 0, "GET /version failed: timeout",
                Map.of(), new SocketTimeoutException("timeout"))).kind()).isEqualTo(BackendException.Kind.TIMEOUT);
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.NETWORK, 0, "GET /version failed: refused",
                Map.of(), new ConnectException("Connection refused"))).kind()).isEqualTo(BackendException.Kind.NETWORK);
        assertThat(PveErrors.map(new PveApiException(PveApiException.Kind.NETWORK, 0, "GET /version failed",
                Map.of(), new IOException("unexpected end of stream"))).kind()).isEqualTo(BackendException.Kind.NETWORK);
    }

    /** PVE's real 400 for an exec-status without pid (shared/fixtures/agent/03b), through the client's answer parsing. */
    @Test
    void theRealMissingPidAnswerIsInvalidAndNamesPid() throws Exception {
        String body = new String(SharedFixtures.read("agent/03b-pve-exec-status-400-missing-pid-unescaped-urielch-issue11.json"),
                StandardCharsets.UTF_8);
        PveClient client = new PveClient("https://127.0.0.1:8006", PveCredentials.Token.parse("root@pam!t=s"),
                Optional.empty(), PveContract.load());
        PveApiException raw = catchThrowableOfType(PveApiException.class, () -> client.answer("GET",
                "/nodes/pve/qemu/102/agent/exec-status", 400, "Parameter verification failed.", body));
        BackendException e = PveErrors.map(raw);
        assertThat(e.kind()).isEqualTo(BackendException.Kind.INVALID);
        assertThat(e.getMessage()).contains("pid").contains("property is missing and it is not optional");
    }

    @Test
    void aBadRequestIsInvalidAndNamesEachParameter() {
        BackendException pve = PveErrors.map(new PveApiException(PveApiException.Kind.BAD_REQUEST, 400,
                "Proxmox VE answered 400 Parameter verification failed. {cores=type check ('integer') failed - got 'x'}",
                Map.of("cores", "type check ('integer') failed - got 'x'"), null));
        assertThat(pve.kind()).isEqualTo(BackendException.Kind.INVALID);
        assertThat(pve.getMessage()).containsOnlyOnce("cores");
        BackendException ours = PveErrors.map(new PveApiException(PveApiException.Kind.BAD_REQUEST, 0,
                "GPUForge built an invalid request for PUT /nodes/pve1/qemu/101/config",
                Map.of("hugepages", "property is not defined in schema and the schema does not allow additional properties"),
                null));
        assertThat(ours.kind()).isEqualTo(BackendException.Kind.INVALID);
        assertThat(ours.getMessage()).contains("PUT /nodes/pve1/qemu/101/config").contains("hugepages: property is not"
                + " defined in schema");
    }
}
