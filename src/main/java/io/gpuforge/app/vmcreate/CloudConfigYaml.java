package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.vm.VmTemplate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * A cloud-config document read the way cloud-init reads it: YAML 1.1 with the safe types only (cloud-init's
 * {@code yaml.safe_load}), merge keys ({@code <<}) resolved, one document. Which keys a template sets is decided on
 * the parsed mapping, never on the text: {@code "users":}, {@code 'hostname':}, {@code ? users} and a merged
 * {@code <<: {users: …}} are all the key {@code users}. A duplicate key is refused (cloud-init keeps the last one,
 * so a second {@code users} would silently replace the wizard's). Bounded: at most {@value #MAX_CHARS} characters,
 * {@value #MAX_ALIASES} aliases and {@value #MAX_DEPTH} levels, so a hostile document cannot blow up memory.
 * Pure; thread-safe (a parser per call).
 */
public final class CloudConfigYaml {

    /** The longest user-data read (Proxmox VE and NoCloud seeds take far less in practice). */
    public static final int MAX_CHARS = 1 << 20;
    static final int MAX_ALIASES = 50;
    static final int MAX_DEPTH = 64;

    private final Map<String, Object> root;

    private CloudConfigYaml(Map<String, Object> root) {
        this.root = root;
    }

    /** Why a text is not a cloud-config GPUForge can use; the message names the line or the key. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;
        private final Optional<String> key;

        Invalid(String message, Optional<String> key) {
            super(message);
            this.key = key;
        }

        /** The key that was refused (a reserved or duplicate one), where one was. */
        public Optional<String> key() {
            return key;
        }
    }

    /**
     * Reads {@code text}: a mapping of keys at the top (or nothing at all, which cloud-init takes as no config).
     * The message of a refusal names the line, never the text around it (rendered user-data holds secrets).
     */
    public static CloudConfigYaml parse(String text) throws Invalid {
        Objects.requireNonNull(text);
        if (text.length() > MAX_CHARS) {
            throw new Invalid("the cloud-config is " + text.length() + " characters; at most " + MAX_CHARS + " are read",
                    Optional.empty());
        }
        LoaderOptions o = new LoaderOptions();
        o.setAllowDuplicateKeys(false);
        o.setMaxAliasesForCollections(MAX_ALIASES);
        o.setNestingDepthLimit(MAX_DEPTH);
        o.setAllowRecursiveKeys(false);
        o.setCodePointLimit(MAX_CHARS * 2);
        List<Object> docs = new ArrayList<>();
        try {
            for (Object d : new Yaml(new SafeConstructor(o)).loadAll(text)) {
                docs.add(d);
            }
        } catch (DuplicateKeyException e) {
            String key = duplicate(e);
            throw new Invalid("the key '" + key + "' is given twice" + at(e.getProblemMark())
                    + " (cloud-init would keep only the last one)", Optional.of(key));
        } catch (MarkedYAMLException e) {
            throw new Invalid("not valid YAML" + at(e.getProblemMark()) + ": " + firstLine(e.getProblem()),
                    Optional.empty());
        } catch (YAMLException e) {
            throw new Invalid("not valid YAML: " + firstLine(e.getMessage()), Optional.empty());
        } catch (StackOverflowError e) {
            throw new Invalid("the cloud-config nests too deeply", Optional.empty());
        }
        if (docs.size() > 1) {
            throw new Invalid("the cloud-config holds " + docs.size() + " YAML documents ('---'); cloud-init reads one",
                    Optional.empty());
        }
        Object top = docs.isEmpty() ? null : docs.get(0);
        if (top == null) {
            return new CloudConfigYaml(Map.of());
        }
        if (!(top instanceof Map)) {
            throw new Invalid("the cloud-config is not a mapping of keys (it is a " + kind(top) + ")", Optional.empty());
        }
        Map<String, Object> keys = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) top).entrySet()) {
            keys.put(String.valueOf(e.getKey()), e.getValue());
        }
        return new CloudConfigYaml(Collections.unmodifiableMap(keys));
    }

    /**
     * Refuses a template whose user-data sets a key GPUForge writes itself from the wizard's values
     * ({@link VmTemplate#RESERVED_KEYS}), or that is not a cloud-config at all. The message names the key.
     */
    public static void checkTemplate(VmTemplate t) throws Invalid {
        if (t.userData().isEmpty()) {
            return;
        }
        CloudConfigYaml doc;
        try {
            doc = parse(t.userData().get());
        } catch (Invalid e) {
            throw new Invalid("The user-data of the template '" + t.name() + "' is " + e.getMessage(), e.key());
        }
        for (String k : doc.keys()) {
            if (VmTemplate.RESERVED_KEYS.contains(k.toLowerCase(Locale.ROOT))) {
                throw reserved(t, k);
            }
        }
        // below the top: cloud-init makes the default user (its name, password and keys) from system_info
        Object system = doc.root.get("system_info");
        if (system instanceof Map && ((Map<?, ?>) system).keySet().stream()
                .anyMatch(k -> "default_user".equalsIgnoreCase(String.valueOf(k)))) {
            throw reserved(t, "system_info.default_user");
        }
    }

    private static Invalid reserved(VmTemplate t, String key) {
        return new Invalid("The template '" + t.name() + "' sets '" + key + "' in its user-data: GPUForge sets it"
                + " from the wizard's values (user, password, SSH keys, host name), so the template must leave it out",
                Optional.of(key));
    }

    /** The top-level keys, in the document's order. */
    public Set<String> keys() {
        return new LinkedHashSet<>(root.keySet());
    }

    /** Whether a {@code write_files} entry is deferred ({@code defer: true}: written after the packages). */
    public boolean hasDeferredFiles() {
        Object files = root.get("write_files");
        if (!(files instanceof List)) {
            return false;
        }
        for (Object f : (List<?>) files) {
            if (f instanceof Map && Boolean.TRUE.equals(((Map<?, ?>) f).get("defer"))) {
                return true;
            }
        }
        return false;
    }

    private static String duplicate(DuplicateKeyException e) {
        String p = String.valueOf(e.getProblem());
        String marker = "found duplicate key ";
        int i = p.indexOf(marker);
        return i < 0 ? p : p.substring(i + marker.length()).strip();
    }

    private static String at(Mark m) {
        return m == null ? "" : " at line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        String line = s.strip().split("\n", 2)[0];
        return line.length() > 160 ? line.substring(0, 157) + "..." : line;
    }

    private static String kind(Object o) {
        if (o instanceof List) {
            return "list";
        }
        return o instanceof String ? "text" : "single value";
    }
}
