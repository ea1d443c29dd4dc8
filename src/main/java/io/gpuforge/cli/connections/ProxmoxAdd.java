package io.gpuforge.cli.connections;

import io.gpuforge.app.session.AdhocHypervisor;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.backends.ConnectionTester;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.util.Optional;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.CliVault;
import io.gpuforge.cli.common.PveLogin;

/**
 * {@code gpuforge connection add NAME --pve URL …}: the window's "Add connection" for a Proxmox VE cluster, from a
 * shell. The login is tried first, as the form's Test does: a certificate the system does not trust and no
 * {@code --fingerprint} given is refused with its SHA-256 fingerprint (the window shows it to accept); a wrong
 * token or password is refused with the cluster's answer; an account with a second factor is told to use an API
 * token. Only then is the connection saved, its secret in the secret store and its pin with it; privileges the
 * login lacks are listed.
 */
final class ProxmoxAdd {

    private ProxmoxAdd() {
    }

    /** The saved connection, or empty when it was refused (the reason is on stderr). */
    static Optional<ConnectionInfo> add(AppContext ctx, CliServices services, String name, String url, PveLogin login)
            throws Exception {
        PveLogin.checkUrl(url);
        if (!login.credentials(services)) {
            throw new IllegalArgumentException("--pve needs its credentials: --token-stdin (or "
                    + PveLogin.TOKEN_VARIABLE + "), or --pve-user USER@REALM --pve-password-stdin");
        }
        CliVault.readyToStore(ctx, services);
        AdhocHypervisor a = login.login(services, url);
        char[] secret = a.secret().orElseThrow();
        try {
            ConnectionTester.Report r = ctx.tester().proxmox(new ConnectionTester.ProxmoxLogin(url, a.user(),
                    secret.clone(), a.fingerprint(), Optional.empty()));
            if (r.untrustedFingerprint().isPresent()) {
                String f = r.untrustedFingerprint().get();
                services.output().error("gpuforge connection add: the certificate of " + url + " is not trusted by this"
                        + " system; its SHA-256 fingerprint is " + f + ". If the cluster shows the same (Datacenter →"
                        + " node → System → Certificates), add it again with --fingerprint " + f);
                return Optional.empty();
            }
            if (!r.ok()) {
                boolean secondFactor = r.field().filter(ConnectionTester.Field.ONE_TIME_CODE::equals).isPresent();
                services.output().error("gpuforge connection add: " + (secondFactor ? a.user() + " has a second"
                        + " factor, which a saved login cannot answer: make an API token for it and use --token-stdin"
                        : r.message()));
                return Optional.empty();
            }
            ConnectionInfo c = a.passwordLogin()
                    ? ctx.connections().addProxmoxUser(name, url, a.user(), secret.clone(), a.fingerprint())
                    : ctx.connections().addProxmox(name, url, a.user(), secret.clone(), a.fingerprint());
            r.missing().forEach(m -> services.output().error("note: " + a.user() + " lacks " + m));
            return Optional.of(c);
        } finally {
            a.wipe(); // the secret's array too
        }
    }
}
