package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.BackendException.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.libvirt.Error.ErrorDomain;
import org.libvirt.Error.ErrorNumber;

/**
 * libvirt's error codes as the kinds callers react to. The real triggers are in the backend's tests (no such
 * domain, a stale version, a dropped connection, an agent that is not there); this is the table behind them.
 */
class LibvirtErrorsTest {

    @ParameterizedTest(name = "{0} from {1} is {2}")
    @CsvSource({
        "VIR_ERR_NO_DOMAIN, VIR_FROM_QEMU, NOT_FOUND",
        "VIR_ERR_NO_NODE_DEVICE, VIR_FROM_NODEDEV, NOT_FOUND",
        "VIR_ERR_OPERATION_INVALID, VIR_FROM_QEMU, INVALID",
        "VIR_ERR_XML_ERROR, VIR_FROM_DOMAIN, INVALID",
        "VIR_ERR_CONFIG_UNSUPPORTED, VIR_FROM_QEMU, INVALID",
        "VIR_ERR_NO_SUPPORT, VIR_FROM_TEST, UNSUPPORTED",
        "VIR_ERR_AUTH_FAILED, VIR_FROM_AUTH, AUTH",
        "VIR_ERR_ACCESS_DENIED, VIR_FROM_ACCESS, AUTH",
        "VIR_ERR_OPERATION_DENIED, VIR_FROM_NONE, AUTH",
        "VIR_ERR_GNUTLS_ERROR, VIR_FROM_RPC, TLS",
        "VIR_ERR_OPERATION_TIMEOUT, VIR_FROM_QEMU, TIMEOUT",
        "VIR_ERR_RPC, VIR_FROM_RPC, NETWORK",
        "VIR_ERR_NO_CONNECT, VIR_FROM_REMOTE, NETWORK",
        "VIR_ERR_SSH, VIR_FROM_SSH, NETWORK",
        // keepalive timeout and a refused socket: raised by the client transport
        "VIR_ERR_INTERNAL_ERROR, VIR_FROM_RPC, NETWORK",
        "VIR_ERR_SYSTEM_ERROR, VIR_FROM_RPC, NETWORK",
        // the same codes from the host's side are the host's failures, not the network's
        "VIR_ERR_INTERNAL_ERROR, VIR_FROM_TEST, FAILED",
        "VIR_ERR_SYSTEM_ERROR, VIR_FROM_QEMU, FAILED",
        "VIR_ERR_OPERATION_FAILED, VIR_FROM_QEMU, FAILED",
    })
    void aLibvirtErrorHasTheKindCallersReactTo(ErrorNumber code, ErrorDomain domain, Kind kind) {
        assertThat(LibvirtErrors.kind(code, domain)).isEqualTo(kind);
    }
}
