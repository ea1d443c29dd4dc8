package io.gpuforge.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpuforge.domain.vm.CloudImage;
import io.gpuforge.domain.vm.TemplateFormatException;
import io.gpuforge.domain.vm.VmTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * GPUForge's template file: {@code {"format": "gpuforge-vm-templates", "version": 2, "templates": [...]}}. Reading
 * checks every field and names the first wrong one ({@code templates[1].memoryMiB: a whole number is needed, got
 * "lots"}); version 1 files (memory in GiB, {@code firmware: "uefi"|"bios"}, no GPU count) are read and upgraded; a
 * newer version is refused. The database keeps each user template as one template object of the current version.
 */
public final class TemplateJson {

    public static final String FORMAT = "gpuforge-vm-templates";
    public static final int VERSION = 2;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private TemplateJson() {
    }

    /** The file's text for these templates (user-data inline). */
    public static String export(List<VmTemplate> templates) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        ArrayNode list = root.putArray("templates");
        templates.forEach(t -> list.add(object(t)));
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("templates could not be written as JSON", e);
        }
    }

    /** One template as the database keeps it. */
    public static String one(VmTemplate t) {
        try {
            return JSON.writeValueAsString(object(t));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("template " + t.id() + " could not be written as JSON", e);
        }
    }

    public static VmTemplate readOne(String json, boolean builtIn) throws TemplateFormatException {
        return template(parse(json), "template", VERSION, builtIn, r -> null);
    }

    /** Reads a template file; every template is checked before any is returned. */
    public static List<VmTemplate> read(String json) throws TemplateFormatException {
        return read(json, false, r -> null);
    }

    /**
     * @param userDataResource for built-in files: the text of a {@code userDataResource} named by a template
     */
    public static List<VmTemplate> read(String json, boolean builtIn, Function<String, String> userDataResource)
            throws TemplateFormatException {
        JsonNode root = parse(json);
        if (!root.isObject()) {
            throw new TemplateFormatException("The file is not a GPUForge template file: it holds "
                    + root.getNodeType().name().toLowerCase(Locale.ROOT) + ", not an object with \"format\": \"" + FORMAT + "\"");
        }
        if (!FORMAT.equals(root.path("format").asText(null))) {
            throw new TemplateFormatException("format: the file is not a GPUForge template file (\"format\" must be \""
                    + FORMAT + "\", got " + shown(root.get("format")) + ")");
        }
        JsonNode v = root.get("version");
        if (v == null || !v.canConvertToExactIntegral()) {
            throw new TemplateFormatException("version: a whole number is needed, got " + shown(v));
        }
        int version = v.asInt();
        if (version > VERSION) {
            throw new TemplateFormatException("version: " + version + " was written by a newer GPUForge; this one reads"
                    + " versions 1 to " + VERSION + ": update GPUForge to import it");
        }
        if (version < 1) {
            throw new TemplateFormatException("version: " + version + " is not a template file version (1 to " + VERSION + ")");
        }
        JsonNode list = root.get("templates");
        if (list == null || !list.isArray()) {
            throw new TemplateFormatException("templates: a list of templates is needed, got " + shown(list));
        }
        List<VmTemplate> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            out.add(template(list.get(i), "templates[" + i + "]", version, builtIn, userDataResource));
        }
        return out;
    }

    private static JsonNode parse(String json) throws TemplateFormatException {
        try {
            JsonNode n = JSON.readTree(json);
            if (n == null || n.isMissingNode()) {
                throw new TemplateFormatException("The file is empty: a GPUForge template file is JSON");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw new TemplateFormatException("The file is not valid JSON (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + "): " + e.getOriginalMessage(), e);
        }
    }

    private static VmTemplate template(JsonNode n, String at, int version, boolean builtIn,
                                       Function<String, String> resources) throws TemplateFormatException {
        if (n == null || !n.isObject()) {
            throw new TemplateFormatException(at + ": a template object is needed, got " + shown(n));
        }
        Fields f = new Fields(n, at);
        String id = f.text("id");
        String name = f.text("name");
        String description = f.optionalText("description").orElse("");
        String os = f.text("os").toLowerCase(Locale.ROOT);
        if (!os.equals("linux") && !os.equals("windows")) {
            throw new TemplateFormatException(at + ".os: \"linux\" or \"windows\", got \"" + os + "\"");
        }
        int memoryMiB;
        boolean uefi;
        int gpus;
        boolean agent;
        if (version == 1) {
            int gib = f.integer("memoryGiB");
            if (gib < 1 || gib > 16 * 1024) {
                throw new TemplateFormatException(at + ".memoryGiB: 1 to 16384 GiB, got " + gib);
            }
            memoryMiB = gib * 1024;
            String firmware = f.text("firmware");
            if (!firmware.equals("uefi") && !firmware.equals("bios")) {
                throw new TemplateFormatException(at + ".firmware: \"uefi\" or \"bios\", got \"" + firmware + "\"");
            }
            uefi = firmware.equals("uefi");
            gpus = 0;
            agent = os.equals("linux");
        } else {
            memoryMiB = f.integer("memoryMiB");
            uefi = f.bool("uefi");
            gpus = f.integer("gpus");
            agent = f.bool("agent");
        }
        Optional<CloudImage> image = Optional.empty();
        JsonNode img = n.get("image");
        if (img != null && !img.isNull()) {
            Fields i = new Fields(img, at + ".image");
            try {
                image = Optional.of(new CloudImage(i.text("url"), i.text("fileName"), i.optionalText("sha256")));
            } catch (IllegalArgumentException e) {
                throw new TemplateFormatException(at + ".image: " + e.getMessage(), e);
            }
        }
        Optional<String> userData = f.optionalText("userData");
        Optional<String> resource = builtIn ? f.optionalText("userDataResource") : Optional.empty();
        if (resource.isPresent()) {
            String text = resources.apply(resource.get());
            if (text == null) {
                throw new TemplateFormatException(at + ".userDataResource: " + resource.get() + " is missing");
            }
            userData = Optional.of(text);
        }
        List<String> isos = f.texts("isos");
        List<VmTemplate.Variable> variables = new ArrayList<>();
        JsonNode vars = n.get("variables");
        if (vars != null && !vars.isNull()) {
            if (!vars.isArray()) {
                throw new TemplateFormatException(at + ".variables: a list is needed, got " + shown(vars));
            }
            for (int k = 0; k < vars.size(); k++) {
                Fields vf = new Fields(vars.get(k), at + ".variables[" + k + "]");
                try {
                    variables.add(new VmTemplate.Variable(vf.text("name"), vf.optionalText("label").orElse(""),
                            vf.optionalBool("secret").orElse(false)));
                } catch (IllegalArgumentException e) {
                    throw new TemplateFormatException(at + "." + e.getMessage(), e);
                }
            }
        }
        try {
            return new VmTemplate(id, name, description, builtIn, VmTemplate.Os.valueOf(os.toUpperCase(Locale.ROOT)),
                    f.integer("cores"), memoryMiB, f.integer("diskGiB"), uefi, f.optionalBool("tpm").orElse(false),
                    f.optionalText("cpuType").orElse("host"), f.optionalText("osType").orElse(os.equals("linux") ? "l26"
                    : "win11"), gpus, agent, image, userData, isos, variables);
        } catch (IllegalArgumentException e) {
            throw new TemplateFormatException(at + "." + e.getMessage(), e);
        }
    }

    private static ObjectNode object(VmTemplate t) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", t.id());
        o.put("name", t.name());
        o.put("description", t.description());
        o.put("os", t.os().name().toLowerCase(Locale.ROOT));
        o.put("cores", t.cores());
        o.put("memoryMiB", t.memoryMiB());
        o.put("diskGiB", t.diskGiB());
        o.put("uefi", t.uefi());
        o.put("tpm", t.tpm());
        o.put("cpuType", t.cpuType());
        o.put("osType", t.osType());
        o.put("gpus", t.gpus());
        o.put("agent", t.agent());
        t.image().ifPresent(i -> {
            ObjectNode img = o.putObject("image");
            img.put("url", i.url());
            img.put("fileName", i.fileName());
            i.sha256().ifPresent(s -> img.put("sha256", s));
        });
        t.userData().ifPresent(u -> o.put("userData", u));
        ArrayNode isos = o.putArray("isos");
        t.isos().forEach(isos::add);
        ArrayNode vars = o.putArray("variables");
        t.variables().forEach(v -> vars.addObject().put("name", v.name()).put("label", v.label()).put("secret", v.secret()));
        return o;
    }

    private static String shown(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        String s = n.toString();
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }

    /** Typed reads of one object's fields, each failure naming {@code at.field}. */
    private static final class Fields {
        private final JsonNode n;
        private final String at;

        Fields(JsonNode n, String at) throws TemplateFormatException {
            if (n == null || !n.isObject()) {
                throw new TemplateFormatException(at + ": an object is needed, got " + shown(n));
            }
            this.n = n;
            this.at = at;
        }

        String text(String field) throws TemplateFormatException {
            return optionalText(field).orElseThrow(() -> new TemplateFormatException(at + "." + field
                    + ": a text is needed, got nothing"));
        }

        Optional<String> optionalText(String field) throws TemplateFormatException {
            JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                return Optional.empty();
            }
            if (!v.isTextual()) {
                throw new TemplateFormatException(at + "." + field + ": a text is needed, got " + shown(v));
            }
            return Optional.of(v.asText());
        }

        int integer(String field) throws TemplateFormatException {
            JsonNode v = n.get(field);
            if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
                throw new TemplateFormatException(at + "." + field + ": a whole number is needed, got " + shown(v));
            }
            return v.asInt();
        }

        boolean bool(String field) throws TemplateFormatException {
            return optionalBool(field).orElseThrow(() -> new TemplateFormatException(at + "." + field
                    + ": true or false is needed, got nothing"));
        }

        Optional<Boolean> optionalBool(String field) throws TemplateFormatException {
            JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                return Optional.empty();
            }
            if (!v.isBoolean()) {
                throw new TemplateFormatException(at + "." + field + ": true or false is needed, got " + shown(v));
            }
            return Optional.of(v.asBoolean());
        }

        List<String> texts(String field) throws TemplateFormatException {
            JsonNode v = n.get(field);
            if (v == null || v.isNull()) {
                return List.of();
            }
            if (!v.isArray()) {
                throw new TemplateFormatException(at + "." + field + ": a list of texts is needed, got " + shown(v));
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < v.size(); i++) {
                if (!v.get(i).isTextual()) {
                    throw new TemplateFormatException(at + "." + field + "[" + i + "]: a text is needed, got "
                            + shown(v.get(i)));
                }
                out.add(v.get(i).asText());
            }
            return out;
        }
    }
}
