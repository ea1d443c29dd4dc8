package io.gpuforge.host;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Names for vendor:device ids from a {@code pci.ids} file, read in one pass for just the ids asked. */
final class PciIds {

    static final List<String> LOCATIONS = List.of("usr/share/misc/pci.ids", "usr/share/hwdata/pci.ids");

    private PciIds() {
    }

    static Optional<Path> find(Path root) {
        return LOCATIONS.stream().map(root::resolve).filter(Files::isReadable).findFirst();
    }

    /** "vvvv:dddd" → "Vendor Device name" for the ids found. */
    static Map<String, String> lookup(Path file, Set<String> ids) {
        Map<String, String> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        Set<String> vendors = new java.util.HashSet<>();
        ids.forEach(id -> vendors.add(id.substring(0, 4)));
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String vendor = null;
            String vendorName = null;
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                if (line.startsWith("C ")) {
                    break; // class section follows the vendors
                }
                if (line.charAt(0) != '\t') {
                    vendor = line.length() > 6 ? line.substring(0, 4).toLowerCase() : null;
                    vendorName = vendor != null && vendors.contains(vendor) ? line.substring(4).strip() : null;
                } else if (vendorName != null && line.length() > 7 && line.charAt(1) != '\t') {
                    String id = vendor + ":" + line.substring(1, 5).toLowerCase();
                    if (ids.contains(id)) {
                        out.put(id, vendorName + " " + line.substring(5).strip());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return out; // names are a nicety; an unreadable file just leaves them out
        }
        return out;
    }
}
