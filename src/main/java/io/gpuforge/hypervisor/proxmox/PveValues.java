package io.gpuforge.hypervisor.proxmox;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reading real PVE answers, which are loosely typed: booleans as 0/1 (or "0"/"1"), numbers sent as
 * strings, optional fields absent or null. Wrong shapes give empty, never an exception.
 */
public final class PveValues {

    private PveValues() {
    }

    public static Optional<String> text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() || v.isContainerNode() ? Optional.empty() : Optional.of(v.asText());
    }

    public static OptionalLong number(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            return OptionalLong.empty();
        }
        if (v.isNumber()) {
            return OptionalLong.of(v.asLong());
        }
        if (v.isTextual()) {
            String s = v.asText().strip();
            try {
                return OptionalLong.of(s.contains(".") ? (long) Double.parseDouble(s) : Long.parseLong(s));
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.empty();
    }

    /** 1, "1", true, "true", "yes", "on" → true; 0, "0", false … → false; anything else → empty. */
    public static Optional<Boolean> bool(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (v.isBoolean()) {
            return Optional.of(v.asBoolean());
        }
        String s = v.asText().strip().toLowerCase(Locale.ROOT);
        switch (s) {
            case "1":
            case "true":
            case "yes":
            case "on":
                return Optional.of(true);
            case "0":
            case "false":
            case "no":
            case "off":
                return Optional.of(false);
            default:
                return Optional.empty();
        }
    }

    /**
     * {@code sshkeys} must reach PVE URL-encoded once more inside the form (PVE decodes it twice): spaces as
     * {@code %20}, not {@code +}.
     */
    public static String sshKeys(String keys) {
        return URLEncoder.encode(keys, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Booleans go to PVE as 1/0. */
    public static String send(boolean b) {
        return b ? "1" : "0";
    }
}
