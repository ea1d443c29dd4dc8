package io.gpuforge.telemetry;

import io.gpuforge.bounded.BoundedStreams;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoint's certificate and key, from the files the web configuration names, loaded again at the next TLS
 * handshake after either file (or the configuration's choice of files) changed: a renewed certificate is served
 * without a restart. Files that cannot be read leave the previous pair in use, and the log says why.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {

    private static final Logger LOG = LoggerFactory.getLogger(ReloadingKeyManager.class);

    private final WebConfigWatch web;
    private volatile Loaded loaded;

    private record Loaded(String stamp, X509KeyManager keys) {
    }

    private ReloadingKeyManager(WebConfigWatch web, Loaded first) {
        this.web = web;
        this.loaded = first;
    }

    /** A TLS context serving the configuration's certificate; its files are checked at each handshake. */
    static SSLContext context(WebConfigWatch web) throws IOException {
        WebConfig now = web.current();
        ReloadingKeyManager km = new ReloadingKeyManager(web, load(now));
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(new KeyManager[] {km}, null, new SecureRandom());
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IOException("TLS cannot be set up: " + e.getMessage(), e);
        }
    }

    private X509KeyManager keys() {
        WebConfig now = web.current();
        Loaded l = loaded;
        String stamp = stamp(now);
        if (!stamp.equals(l.stamp())) {
            synchronized (this) {
                l = loaded;
                if (!stamp.equals(l.stamp())) {
                    try {
                        l = load(now);
                        LOG.info("TLS certificate {} loaded again", now.certFile().orElseThrow());
                    } catch (IOException | RuntimeException e) {
                        // not again at every handshake: the previous pair under the new stamp
                        l = new Loaded(stamp, l.keys());
                        LOG.warn("TLS certificate or key changed but cannot be used ({}); the previous one is served",
                                e.getMessage());
                    }
                    loaded = l;
                }
            }
        }
        return l.keys();
    }

    private static String stamp(WebConfig web) {
        // the files' names too: a configuration that names other files is a change even if their times agree
        Path cert = web.certFile().orElseThrow();
        Path key = web.keyFile().orElseThrow();
        return cert + "@" + WebConfigWatch.stampOf(cert) + "|" + key + "@" + WebConfigWatch.stampOf(key);
    }

    /** The certificate chain (PEM) and PKCS#8 key the configuration names. */
    private static Loaded load(WebConfig web) throws IOException {
        String stamp = stamp(web);
        try {
            List<? extends Certificate> chain;
            try (var in = Files.newInputStream(web.certFile().orElseThrow())) {
                chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
            }
            if (chain.isEmpty()) {
                throw new IOException(web.certFile().get() + " holds no certificate");
            }
            requireUnreadableByOthers(web.keyFile().orElseThrow());
            PrivateKey key = key(BoundedStreams.readString(web.keyFile().orElseThrow(), 1 << 20));
            char[] pass = Long.toHexString(new SecureRandom().nextLong()).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("gpuforge", key, pass, chain.toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
            kmf.init(ks, pass);
            return new Loaded(stamp, (X509KeyManager) kmf.getKeyManagers()[0]);
        } catch (GeneralSecurityException e) {
            throw new IOException("the TLS certificate or key cannot be used: " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a private key every user of the machine can read, as OpenSSH does its keys: whoever reads it can pose
     * as this endpoint. Its group may (the service's own group, say).
     */
    static void requireUnreadableByOthers(Path key) throws IOException {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> mode;
        try {
            mode = Files.getPosixFilePermissions(key);
        } catch (UnsupportedOperationException e) {
            return; // no POSIX modes here (Windows): its ACLs are the admin's
        }
        if (mode.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)) {
            throw new IOException("the key_file " + key + " can be read by every user of this computer ("
                    + java.nio.file.attribute.PosixFilePermissions.toString(mode) + "): chmod 600 " + key
                    + " (or 640 with the service's group)");
        }
    }

    private static PrivateKey key(String pem) throws IOException {
        if (!pem.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new IOException("the key_file must be an unencrypted PKCS#8 PEM key (BEGIN PRIVATE KEY); convert"
                    + " one with: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key-pkcs8.pem");
        }
        String b64 = pem.substring(pem.indexOf("-----BEGIN PRIVATE KEY-----") + 27, pem.indexOf("-----END PRIVATE KEY"))
                .replaceAll("\\s", "");
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64));
        for (String alg : new String[] {"RSA", "EC", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // try the next kind of key
            }
        }
        throw new IOException("the key_file holds no RSA, EC or Ed25519 key");
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return keys().chooseServerAlias(keyType, issuers, null);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return keys().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return loaded.keys().getServerAliases(keyType, issuers);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return loaded.keys().getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return loaded.keys().getPrivateKey(alias);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
