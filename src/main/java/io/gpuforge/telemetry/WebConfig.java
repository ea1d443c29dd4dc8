package io.gpuforge.telemetry;

import io.gpuforge.bounded.BoundedStreams;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The web configuration file of Prometheus' exporters (exporter-toolkit), so that Prometheus' own documentation
 * applies: {@code tls_server_config} with {@code cert_file} and {@code key_file} (PEM; paths relative to the file),
 * and {@code basic_auth_users}, user to bcrypt hash ({@code htpasswd -nBC 10 USER}). Other keys are refused by name
 * rather than ignored, so a setting is never silently without effect.
 */
public record WebConfig(Optional<Path> certFile, Optional<Path> keyFile, Map<String, String> users) {

    public WebConfig {
        users = Map.copyOf(users);
        if (certFile.isPresent() != keyFile.isPresent()) {
            throw new IllegalArgumentException("tls_server_config needs both cert_file and key_file");
        }
    }

    public static WebConfig none() {
        return new WebConfig(Optional.empty(), Optional.empty(), Map.of());
    }

    public boolean tls() {
        return certFile.isPresent();
    }

    public boolean basicAuth() {
        return !users.isEmpty();
    }

    /** Reads a web configuration file. */
    public static WebConfig read(Path file) throws IOException {
        Object doc;
        try {
            doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(BoundedStreams.readString(file, 1 << 20));
        } catch (RuntimeException e) {
            throw new IOException(file + " is not YAML: " + e.getMessage(), e);
        }
        if (doc == null) {
            return none();
        }
        Map<?, ?> top = map(doc, file + "");
        Optional<Path> cert = Optional.empty();
        Optional<Path> key = Optional.empty();
        Map<String, String> users = new LinkedHashMap<>();
        Path dir = file.toAbsolutePath().getParent();
        for (Map.Entry<?, ?> e : top.entrySet()) {
            switch (String.valueOf(e.getKey())) {
                case "tls_server_config" -> {
                    for (Map.Entry<?, ?> t : map(e.getValue(), "tls_server_config").entrySet()) {
                        switch (String.valueOf(t.getKey())) {
                            case "cert_file" -> cert = Optional.of(dir.resolve(String.valueOf(t.getValue())));
                            case "key_file" -> key = Optional.of(dir.resolve(String.valueOf(t.getValue())));
                            default -> throw new IOException(file + ": tls_server_config." + t.getKey()
                                    + " is not supported (cert_file and key_file are)");
                        }
                    }
                }
                case "basic_auth_users" -> {
                    for (Map.Entry<?, ?> u : map(e.getValue(), "basic_auth_users").entrySet()) {
                        String hash = String.valueOf(u.getValue());
                        if (!hash.matches("\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}")) {
                            throw new IOException(file + ": the password of " + u.getKey() + " is not a bcrypt hash"
                                    + " (make one with htpasswd -nBC 10 " + u.getKey() + ")");
                        }
                        users.put(String.valueOf(u.getKey()), hash);
                    }
                }
                default -> throw new IOException(file + ": " + e.getKey() + " is not supported (tls_server_config"
                        + " and basic_auth_users are)");
            }
        }
        try {
            return new WebConfig(cert, key, users);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    private static Map<?, ?> map(Object o, String what) throws IOException {
        if (!(o instanceof Map)) {
            throw new IOException(what + " must be a mapping");
        }
        return (Map<?, ?>) o;
    }
}
