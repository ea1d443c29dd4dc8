package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a Proxmox VE answer means: its {@code data} when the status is 2xx and the body is JSON with a data member;
 * else the typed {@link PveApiException} it stands for (401 AUTH, 400 BAD_REQUEST with the fields' errors, 501
 * NOT_IMPLEMENTED, a checksum mismatch CONFLICT, SERVER; PROTOCOL for a body that is not what the API sends). Pure.
 */
final class PveAnswers {

    private final ObjectMapper json = new ObjectMapper();

    /** The {@code data} of an answer, or the typed error it stands for. */
    JsonNode answer(String method, String path, int code, String reason, String text) throws PveApiException {
        if (code < 200 || code > 299) {
            throw error(code, reason, text);
        }
        JsonNode root;
        try {
            root = json.readTree(text);
        } catch (JsonProcessingException ex) {
            throw new PveApiException(PveApiException.Kind.PROTOCOL, code, "The server's answer to " + method
                    + " " + path + " is not JSON: " + snippet(text), Map.of(), ex);
        }
        if (root == null || !root.isObject() || !root.has("data")) {
            throw new PveApiException(PveApiException.Kind.PROTOCOL, code, "The server's answer to " + method
                    + " " + path + " has no data member: " + snippet(text), Map.of(), null);
        }
        return root.get("data");
    }

    private PveApiException error(int code, String message, String body) {
        Map<String, String> errors = new LinkedHashMap<>();
        try {
            JsonNode root = json.readTree(body);
            if (root != null && root.has("errors") && root.get("errors").isObject()) {
                root.get("errors").fields().forEachRemaining(f -> errors.put(f.getKey(), f.getValue().asText()));
            }
        } catch (JsonProcessingException ignored) {
            // an HTML error page or nothing: the status line says it all
        }
        PveApiException.Kind kind;
        if (code == 401) {
            kind = PveApiException.Kind.AUTH;
        } else if (code == 400) {
            kind = PveApiException.Kind.BAD_REQUEST;
        } else if (code == 501) {
            kind = PveApiException.Kind.NOT_IMPLEMENTED;
        } else if (code == 500 && message != null && (message.contains("checksum mismatch")
                || message.contains("detected modified configuration"))) {
            kind = PveApiException.Kind.CONFLICT;
        } else {
            kind = PveApiException.Kind.SERVER;
        }
        String text = kind == PveApiException.Kind.CONFLICT
                ? "Someone else changed this VM's configuration meanwhile (" + message + "); read it again and retry."
                : "Proxmox VE answered " + code + " " + message + (errors.isEmpty() ? "" : " " + errors);
        return new PveApiException(kind, code, text, errors, null);
    }

    static String snippet(String s) {
        String t = s.strip().replaceAll("\\s+", " ");
        return t.length() > 80 ? t.substring(0, 77) + "…" : t;
    }
}
