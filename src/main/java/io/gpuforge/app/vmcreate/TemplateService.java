package io.gpuforge.app.vmcreate;

import io.gpuforge.domain.vm.Firmware;
import io.gpuforge.domain.vm.TemplateFormatException;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.store.StoreException;
import io.gpuforge.store.TemplateJson;
import io.gpuforge.store.TemplateRepository;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * VM templates for the wizard and {@code gpuforge vm templates}: the five built-in ones (from
 * {@code templates/builtin.json} and their cloud-init user-data) and the user's (SQLite): create, edit,
 * duplicate, delete, make one from an existing VM, export and import the versioned JSON file. Blocking: off the
 * FX thread.
 */
public final class TemplateService {

    private static final String BUILTIN = "/templates/builtin.json";
    private final TemplateRepository repository;
    private final List<VmTemplate> builtIn;

    /** A template could not be saved, found or read: the message says what to do. */
    public static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        public Failure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What an import did: the templates added (renamed ones under their new name). */
    public record Imported(List<VmTemplate> added, List<String> renamed) {
        public Imported {
            added = List.copyOf(added);
            renamed = List.copyOf(renamed);
        }
    }

    public TemplateService(TemplateRepository repository) {
        this.repository = repository;
        this.builtIn = loadBuiltIn();
    }

    /** The built-in templates, as shipped. */
    public static List<VmTemplate> loadBuiltIn() {
        try {
            List<VmTemplate> read = TemplateJson.read(resource(BUILTIN), true, name -> {
                try {
                    return resource("/templates/user-data/" + name);
                } catch (UncheckedIOException e) {
                    return null;
                }
            });
            for (VmTemplate t : read) {
                CloudConfigYaml.checkTemplate(t);
            }
            return read;
        } catch (TemplateFormatException | CloudConfigYaml.Invalid e) {
            throw new IllegalStateException("the built-in templates are broken: " + e.getMessage(), e);
        }
    }

    private static String resource(String path) {
        try (InputStream in = TemplateService.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new UncheckedIOException(new IOException(path + " is missing from GPUForge"));
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<VmTemplate> builtIn() {
        return builtIn;
    }

    /** Built-in templates first, then the user's by name. */
    public List<VmTemplate> all() throws Failure {
        List<VmTemplate> out = new ArrayList<>(builtIn);
        out.addAll(user());
        return out;
    }

    private List<VmTemplate> user() throws Failure {
        try {
            return repository.all();
        } catch (StoreException e) {
            throw new Failure(e.getMessage(), e);
        }
    }

    /** A template by id or (case-insensitive) name. */
    public Optional<VmTemplate> find(String idOrName) throws Failure {
        return all().stream().filter(t -> t.id().equals(idOrName) || t.name().equalsIgnoreCase(idOrName.strip()))
                .findFirst();
    }

    /**
     * Saves a new or edited user template; a built-in is never overwritten, names stay unique, and user-data that
     * sets a key GPUForge writes itself (read from the parsed YAML) is refused naming the key.
     */
    public VmTemplate save(VmTemplate t) throws Failure {
        checked(t);
        if (t.builtIn() || builtIn.stream().anyMatch(b -> b.id().equals(t.id()))) {
            throw new Failure("'" + t.name() + "' is built in and cannot be changed: duplicate it and edit the copy", null);
        }
        Optional<VmTemplate> sameName = all().stream().filter(o -> o.name().equalsIgnoreCase(t.name())
                && !o.id().equals(t.id())).findFirst();
        if (sameName.isPresent()) {
            throw new Failure("A template named '" + sameName.get().name() + "' exists already: pick another name", null);
        }
        try {
            repository.put(t);
        } catch (StoreException e) {
            throw new Failure(e.getMessage(), e);
        }
        return t;
    }

    /** An editable copy of any template (built-in ones included) under a new name. */
    public VmTemplate duplicate(String id, String newName) throws Failure {
        VmTemplate source = find(id).orElseThrow(() -> new Failure("There is no template '" + id + "'", null));
        return save(source.copy(freeId(VmTemplate.idFor(newName)), newName));
    }

    public void delete(String id) throws Failure {
        if (builtIn.stream().anyMatch(b -> b.id().equals(id))) {
            throw new Failure("Built-in templates cannot be deleted", null);
        }
        try {
            if (!repository.remove(id)) {
                throw new Failure("There is no user template '" + id + "'", null);
            }
        } catch (StoreException e) {
            throw new Failure(e.getMessage(), e);
        }
    }

    /**
     * A user template from an existing VM's configuration: its cores, memory, system disk size, firmware, OS type
     * and GPU count (the VM's cards); no cloud image or user-data (the VM's disk is its own).
     */
    public VmTemplate fromVm(VmConfig config, String name) throws Failure {
        return save(describe(config, name));
    }

    /**
     * What {@link #fromVm} saves, not saved: the starting point of the template editor ("From an existing VM") and
     * the shape of a clone source in the wizard.
     */
    public VmTemplate describe(VmConfig config, String name) throws Failure {
        VmDetails d = config.details();
        long disk = d.disks().stream().filter(k -> !k.cdrom() && !k.slot().startsWith("efidisk")
                && !k.slot().startsWith("tpmstate")).map(VmDisk::sizeBytes).filter(s -> s.isPresent())
                .mapToLong(s -> s.getAsLong()).findFirst().orElse(32L << 30);
        String osType = d.osType().filter(o -> List.of("l26", "l24", "win11", "win10", "win8", "win7", "w2k8", "wvista",
                "other").contains(o)).orElse("l26");
        VmTemplate.Os os = osType.startsWith("w") ? VmTemplate.Os.WINDOWS : VmTemplate.Os.LINUX;
        long slots = d.hostDevices().stream().map(a -> a.slotAddress()).distinct().count();
        boolean uefi = d.firmware() == Firmware.UEFI;
        boolean tpm = uefi && d.disks().stream().anyMatch(k -> k.slot().startsWith("tpmstate"));
        VmTemplate t = new VmTemplate(freeId(VmTemplate.idFor(name)), name, "Made from VM " + config.ref().id() + " on "
                + config.ref().node(), false, os, d.vcpus(), (int) Math.max(64, d.memoryBytes() >> 20),
                (int) Math.max(1, Math.min(65_536, (disk + (1L << 30) - 1) >> 30)), uefi, tpm, "host", osType,
                (int) Math.min(16, slots), d.guestAgent().orElse(false), Optional.empty(), Optional.empty(), List.of(),
                List.of());
        return t;
    }

    /** The template file's text for these templates (by id). */
    public String export(List<String> ids) throws Failure {
        List<VmTemplate> all = all();
        List<VmTemplate> chosen = new ArrayList<>();
        for (String id : ids) {
            chosen.add(all.stream().filter(t -> t.id().equals(id)).findFirst()
                    .orElseThrow(() -> new Failure("There is no template '" + id + "'", null)));
        }
        return TemplateJson.export(chosen);
    }

    /**
     * Imports a template file: every template is checked first (nothing is imported when one is wrong); one whose
     * id or name is taken is added under a free one ({@code … (imported)}).
     */
    public Imported importJson(String text) throws Failure, TemplateFormatException {
        List<VmTemplate> read = TemplateJson.read(text);
        for (VmTemplate t : read) {
            checked(t);
        }
        List<VmTemplate> added = new ArrayList<>();
        List<String> renamed = new ArrayList<>();
        Set<String> names = new HashSet<>();
        all().forEach(t -> names.add(t.name().toLowerCase(Locale.ROOT)));
        for (VmTemplate t : read) {
            String name = t.name();
            while (names.contains(name.toLowerCase(Locale.ROOT))) {
                name = name + " (imported)";
            }
            if (!name.equals(t.name())) {
                renamed.add(t.name() + " → " + name);
            }
            names.add(name.toLowerCase(Locale.ROOT));
            added.add(save(t.copy(freeId(t.id()), name)));
        }
        return new Imported(added, renamed);
    }

    /** {@code t}, or a refusal of its user-data (a reserved key, not a cloud-config) that names the key. */
    static VmTemplate checked(VmTemplate t) throws Failure {
        try {
            CloudConfigYaml.checkTemplate(t);
            return t;
        } catch (CloudConfigYaml.Invalid e) {
            throw new Failure(e.getMessage(), e);
        }
    }

    private String freeId(String wanted) throws Failure {
        Set<String> ids = new HashSet<>();
        all().forEach(t -> ids.add(t.id()));
        String id = wanted;
        for (int n = 2; ids.contains(id); n++) {
            id = wanted + "-" + n;
        }
        return id;
    }
}
