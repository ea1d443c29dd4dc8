package io.gpuforge.domain.vm;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kind of VM to create again and again: its size, firmware, the cloud image its disk starts from, the cloud-init
 * user-data that sets it up (NVIDIA driver, Docker…), the ISOs it needs (Windows), how many GPUs it expects, and
 * the values the user gives when creating one ({@code ${K8S_TOKEN}} in the user-data). Built-in templates ship
 * with GPUForge; user templates live in the database. An invalid value is refused with
 * {@link IllegalArgumentException} whose message starts with the field's name ({@code memoryMiB: …}).
 *
 * @param id       stable key: letters, digits and '-' ({@code ubuntu-cuda}); a user template's is made from its name
 * @param userData cloud-config text ({@code #cloud-config} first); GPUForge adds the host name, user, password and
 *                 keys, so the template must not set {@code users}, {@code chpasswd}, {@code hostname}… (which keys
 *                 it sets is read from the parsed YAML where templates come in: {@code app/vmcreate/CloudConfigYaml})
 */
public record VmTemplate(String id, String name, String description, boolean builtIn, Os os, int cores,
                         int memoryMiB, int diskGiB, boolean uefi, boolean tpm, String cpuType, String osType, int gpus,
                         boolean agent, Optional<CloudImage> image, Optional<String> userData, List<String> isos,
                         List<Variable> variables) {

    /** Keys of the user-data that GPUForge writes itself from the wizard's values (lower case). */
    public static final Set<String> RESERVED_KEYS = Set.of("users", "user", "chpasswd", "password", "hostname", "fqdn",
            "ssh_pwauth", "ssh_authorized_keys");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)}");
    private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9._:/@+=,-]{1,4096}");
    private static final List<String> OS_TYPES = List.of("l26", "l24", "win11", "win10", "win8", "win7", "w2k8",
            "wvista", "other");

    public enum Os { LINUX, WINDOWS }

    /** A value the user gives when creating a VM from the template, used as {@code ${NAME}} in the user-data. */
    public record Variable(String name, String label, boolean secret) {
        public Variable {
            Objects.requireNonNull(label);
            if (name == null || !name.matches("[A-Z][A-Z0-9_]{0,39}")) {
                throw new IllegalArgumentException("variables: a name is upper-case letters, digits and '_', not '"
                        + name + "'");
            }
        }
    }

    public VmTemplate {
        Objects.requireNonNull(os, "os");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(userData, "userData");
        isos = List.copyOf(isos);
        variables = List.copyOf(variables);
        require(id != null && id.matches("[a-z0-9][a-z0-9-]{0,62}"), "id", "letters a-z, digits and '-' (at most 63), got '"
                + id + "'");
        require(name != null && !name.isBlank() && name.length() <= 80, "name", "1 to 80 characters");
        require(description != null && description.length() <= 2000, "description", "at most 2000 characters");
        require(cores >= 1 && cores <= 512, "cores", "1 to 512, got " + cores);
        require(memoryMiB >= 64 && memoryMiB <= 16 * 1024 * 1024, "memoryMiB", "64 MiB to 16 TiB, got " + memoryMiB);
        require(diskGiB >= 1 && diskGiB <= 65_536, "diskGiB", "1 to 65536 GiB, got " + diskGiB);
        require(gpus >= 0 && gpus <= 16, "gpus", "0 to 16, got " + gpus);
        require(cpuType != null && cpuType.matches("[A-Za-z0-9][A-Za-z0-9_.+-]*"), "cpuType", "a CPU model such as"
                + " 'host' or 'x86-64-v3', got '" + cpuType + "'");
        require(osType != null && OS_TYPES.contains(osType), "osType", "one of " + OS_TYPES + ", got '" + osType + "'");
        require(!tpm || uefi, "tpm", "a TPM needs UEFI firmware (uefi: true)");
        require(os != Os.WINDOWS || userData.isEmpty(), "userData", "Windows templates have no cloud-init");
        for (String iso : isos) {
            require(iso.matches("[A-Za-z0-9._+-]+\\.iso"), "isos", "file names ending in .iso, got '" + iso + "'");
        }
        Set<String> declared = new HashSet<>();
        for (Variable v : variables) {
            require(declared.add(v.name()), "variables", v.name() + " is declared twice");
        }
        if (userData.isPresent()) {
            String u = userData.get();
            require(u.startsWith("#cloud-config\n"), "userData", "cloud-config text whose first line is #cloud-config");
            Matcher ref = REFERENCE.matcher(u);
            while (ref.find()) {
                require(declared.contains(ref.group(1)), "userData", "${" + ref.group(1) + "} is not a declared variable");
            }
        }
    }

    private static void require(boolean ok, String field, String what) {
        if (!ok) {
            throw new IllegalArgumentException(field + ": " + what);
        }
    }

    /** The id a user template gets from its name ({@code My CUDA box} → {@code my-cuda-box}). */
    public static String idFor(String name) {
        String id = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        id = id.isEmpty() ? "template" : id;
        return id.length() > 56 ? id.substring(0, 56) : id;
    }

    /** An editable copy under another name (a built-in's copy is a user template). */
    public VmTemplate copy(String newId, String newName) {
        return new VmTemplate(newId, newName, description, false, os, cores, memoryMiB, diskGiB, uefi, tpm, cpuType,
                osType, gpus, agent, image, userData, isos, variables);
    }

    /** The user-data with every {@code ${NAME}} replaced by its value; a missing value is refused naming it. */
    public Optional<String> renderUserData(Map<String, String> values) {
        if (userData.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder();
        Matcher m = REFERENCE.matcher(userData.get());
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException(m.group(1) + ": a value is needed for " + m.group(1));
            }
            if (!VALUE.matcher(v).matches()) {
                throw new IllegalArgumentException(m.group(1) + ": letters, digits and . _ : / @ + = , - only (no"
                        + " spaces or quotes), at most 4096");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return Optional.of(out.toString());
    }
}
