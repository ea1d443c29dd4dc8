package io.gpuforge.app.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The layers under a user's own settings: the defaults shipped in the installation's {@code config/defaults.json},
 * then the administrator's {@code config/site.json} beside it (what one site wants for all its users: a language,
 * a retention). A user's {@code settings.json} holds only what the user changed, so a later change of the site file
 * still reaches every user who did not choose otherwise. A file that cannot be read is skipped with a warning that
 * names it. Immutable.
 */
public final class SettingsDefaults {

    /** Where the installation's {@code config/} directory is; the packaged launcher sets it to {@code $APPDIR/config}. */
    public static final String INSTALL_CONFIG_PROPERTY = "gpuforge.installConfig";
    public static final String SHIPPED_FILE = "defaults.json";
    public static final String SITE_FILE = "site.json";
    private static final Logger LOG = LoggerFactory.getLogger(SettingsDefaults.class);

    private final ObjectNode tree;

    private SettingsDefaults(ObjectNode tree) {
        this.tree = tree;
    }

    /** No installation layer: the built-in {@link Settings#defaults()}. */
    public static SettingsDefaults none() {
        return new SettingsDefaults(JsonNodeFactory.instance.objectNode());
    }

    /** The installation directory named by {@link #INSTALL_CONFIG_PROPERTY}, if set. */
    public static Optional<Path> installConfigDir() {
        String dir = System.getProperty(INSTALL_CONFIG_PROPERTY);
        return dir == null || dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir));
    }

    /** Reads {@code defaults.json}, then {@code site.json} over it, from an installation's config directory. */
    public static SettingsDefaults read(Optional<Path> configDir, ObjectMapper mapper) {
        ObjectNode merged = JsonNodeFactory.instance.objectNode();
        if (configDir.isPresent()) {
            for (String name : new String[] {SHIPPED_FILE, SITE_FILE}) {
                Path file = configDir.get().resolve(name);
                if (!Files.isRegularFile(file)) {
                    continue;
                }
                try {
                    JsonNode node = mapper.readTree(file.toFile());
                    if (node instanceof ObjectNode) {
                        overlay(merged, (ObjectNode) node);
                        LOG.info("Settings defaults read from {}", file);
                    } else {
                        LOG.warn("Settings defaults in {} are not a JSON object; the file is ignored", file);
                    }
                } catch (IOException e) {
                    LOG.warn("Settings defaults in {} cannot be read ({}); fix or remove the file. It is ignored",
                            file, e.getMessage());
                }
            }
        }
        merged.remove("version");
        return new SettingsDefaults(merged);
    }

    /** The user's own values over these defaults. */
    ObjectNode under(ObjectNode user) {
        ObjectNode out = tree.deepCopy();
        overlay(out, user);
        return out;
    }

    /** Leaves out of {@code full} what equals these defaults, so that only the user's own choices are written. */
    ObjectNode onlyOwn(ObjectNode full, ObjectNode builtIn) {
        ObjectNode own = full.deepCopy();
        Iterator<Map.Entry<String, JsonNode>> it = own.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if ("version".equals(e.getKey())) {
                continue;
            }
            JsonNode base = tree.has(e.getKey()) ? tree.get(e.getKey()) : builtIn.get(e.getKey());
            if (e.getValue().equals(base)) {
                it.remove();
            }
        }
        return own;
    }

    boolean isEmpty() {
        return tree.isEmpty();
    }

    private static void overlay(ObjectNode target, ObjectNode source) {
        Iterator<Map.Entry<String, JsonNode>> it = source.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            target.set(e.getKey(), e.getValue().deepCopy());
        }
    }
}
