package io.gpuforge.hypervisor.proxmox;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * How a Proxmox server's certificate is trusted: by the system's CAs, or by the SHA-256 fingerprint the
 * user accepted (PVE's self-signed default). A pinned fingerprint admits exactly that certificate; a
 * different one is refused and both fingerprints are kept for the message. There is no trust-all mode.
 */
public final class PinnedTrust implements X509TrustManager {

    private final Optional<String> pin;
    private final X509TrustManager system;
    private volatile String lastSeen;

    public PinnedTrust(Optional<String> pinnedFingerprint) throws GeneralSecurityException {
        this.pin = pinnedFingerprint.map(PinnedTrust::normalise);
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init((KeyStore) null);
        X509TrustManager tm = null;
        for (TrustManager t : f.getTrustManagers()) {
            if (t instanceof X509TrustManager) {
                tm = (X509TrustManager) t;
            }
        }
        this.system = tm;
    }

    /** "AB:CD:…" upper-case with colons, as PVE shows it. */
    public static String normalise(String fingerprint) {
        String hex = fingerprint.replace(":", "").strip().toUpperCase(Locale.ROOT);
        if (!hex.matches("[0-9A-F]{64}")) {
            throw new IllegalArgumentException("not a SHA-256 fingerprint: '" + fingerprint + "'");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 64; i += 2) {
            if (i > 0) {
                out.append(':');
            }
            out.append(hex, i, i + 2);
        }
        return out.toString();
    }

    public static String fingerprint(X509Certificate cert) {
        try {
            return normalise(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded())));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("the server sent no certificate");
        }
        lastSeen = fingerprint(chain[0]);
        if (pin.isPresent()) {
            if (!pin.get().equals(lastSeen)) {
                throw new CertificateException("certificate fingerprint " + lastSeen + " is not the pinned " + pin.get());
            }
            return;
        }
        system.checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("client certificates are not checked here");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return pin.isPresent() ? new X509Certificate[0] : system.getAcceptedIssuers();
    }

    /** The fingerprint of the last certificate the server presented (to show on first connect). */
    public Optional<String> lastSeen() {
        return Optional.ofNullable(lastSeen);
    }

    public Optional<String> pinned() {
        return pin;
    }

    public SSLContext sslContext() throws GeneralSecurityException {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, new TrustManager[] {this}, null);
        return c;
    }
}
