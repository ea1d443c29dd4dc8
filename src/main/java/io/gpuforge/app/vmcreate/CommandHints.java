package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.connections.ConnectionInfo;

/**
 * How a "run it later" hint names the hypervisor, in the CLI's one spelling: a saved Proxmox VE cluster by its URL, a
 * cluster named on the spot by its URL with its pin and {@code --token-stdin} (its token was never saved), anything
 * else by its saved name.
 */
final class CommandHints {

    private CommandHints() {
    }

    static String target(ConnectionInfo c) {
        if (c.kind() != ConnectionInfo.Kind.PROXMOX) {
            return "--connection " + quoted(c.name());
        }
        if (c.saved()) {
            return "--pve " + c.address();
        }
        return "--pve " + c.address() + c.tlsFingerprint().map(f -> " --fingerprint " + f).orElse("") + " --token-stdin";
    }

    static String quoted(String s) {
        return s.matches("[A-Za-z0-9._:/@=+-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
