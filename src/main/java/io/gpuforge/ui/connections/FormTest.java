package io.gpuforge.ui.connections;

import io.gpuforge.app.backends.ConnectionTester;
import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.connections.ConnectionOptions;
import java.util.Optional;

/** One "Test connection" of the form: what it read from the form, and the test of its kind (off the FX thread). */
final class FormTest {

    private FormTest() {
    }

    /** What a test reads from the form, taken on the FX thread. */
    record Input(String label, String url, String login, char[] secret, Optional<String> pin,
                             Optional<String> code, String uri, String target, Optional<char[]> password,
                             ConnectionOptions options, Optional<char[]> passphrase) {
    }

    /** Tests what {@code in} says; an edited connection's secret or passphrase left empty is the stored one. */
    static ConnectionTester.Report run(AddConnectionViewModel.Kind k, Input in, Optional<ConnectionInfo> edited,
                                       ConnectionsService connections, ConnectionTester tester, HostKeyPrompt hostKeys)
            throws Exception {
        switch (k) {
            case PROXMOX: {
                char[] secret = in.secret();
                if (secret.length == 0 && edited.isPresent()) {
                    // edit mode, secret left as it was: test with the stored one
                    secret = connections.secret(edited.get()).orElse(new char[0]);
                }
                return tester.proxmox(new ConnectionTester.ProxmoxLogin(in.url(), in.login(), secret, in.pin(), in.code()));
            }
            case LIBVIRT:
                return tester.libvirt(in.uri());
            case SSH: {
                Optional<char[]> pw = in.password();
                Optional<char[]> pass = in.passphrase();
                if (edited.isPresent()) {
                    if (pw.isEmpty() && in.options().identityFile().isEmpty()) {
                        pw = connections.secret(edited.get());
                    }
                    if (pass.isEmpty()) {
                        pass = connections.passphrase(edited.get());
                    }
                }
                return tester.ssh(in.target(), pw, in.options(), pass, hostKeys);
            }
            default:
                return tester.demo();
        }
    }
}
