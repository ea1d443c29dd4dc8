package io.gpuforge.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.domain.connections.ConnectionOptions;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code options} column of a connection: its login options as a small JSON object ({@code sshAgent},
 * {@code identityFile}, {@code sudo}, {@code passphraseRef}); NULL when none are chosen. Unknown members are
 * ignored (a newer GPUForge may add some); a value that is not JSON reads as no options, logged once.
 */
final class ConnectionOptionsJson {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionOptionsJson.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConnectionOptionsJson() {
    }

    static String write(ConnectionOptions o) {
        if (o.isNone()) {
            return null;
        }
        ObjectNode n = JSON.createObjectNode();
        n.put("sshAgent", o.sshAgent());
        o.identityFile().ifPresent(f -> n.put("identityFile", f));
        n.put("sudo", o.sudo());
        o.passphraseRef().ifPresent(r -> n.put("passphraseRef", r));
        return n.toString();
    }

    static ConnectionOptions read(String text, long connectionId) {
        if (text == null || text.isBlank()) {
            return ConnectionOptions.none();
        }
        try {
            JsonNode n = JSON.readTree(text);
            if (n == null || !n.isObject()) {
                throw new IOException("not a JSON object");
            }
            return new ConnectionOptions(n.path("sshAgent").asBoolean(false), text(n, "identityFile"),
                    n.path("sudo").asBoolean(false), text(n, "passphraseRef"));
        } catch (IOException e) {
            LOG.warn("The login options of connection {} are not readable ({}); using none", connectionId,
                    e.getMessage());
            return ConnectionOptions.none();
        }
    }

    private static Optional<String> text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() && !v.asText().isBlank() ? Optional.of(v.asText()) : Optional.empty();
    }
}
