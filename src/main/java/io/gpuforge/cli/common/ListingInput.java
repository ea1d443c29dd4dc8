package io.gpuforge.cli.common;

import io.gpuforge.domain.pci.ListingReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code --listing FILE|-}: a pasted IOMMU listing (optionally with {@code lspci -nnk}) as the host source,
 * and how the commands report what was skipped in it and where it is partial.
 */
public final class ListingInput {

    private ListingInput() {
    }

    /** The groups of a listing that may hold more devices than it shows (none for a live source). */
    public static Set<Integer> groupsNotFullyShown(LoadedHost h) {
        return h.listing().map(ListingReport::groupsNotFullyShown).orElse(Set.of());
    }

    /** Text lines on what a listing skipped and where it is partial; nothing for a live source. */
    public static List<String> notes(LoadedHost h, boolean verbose) {
        List<String> out = new ArrayList<>();
        if (h.listing().isEmpty()) {
            return out;
        }
        ListingReport r = h.listing().get();
        if (!r.skipped().isEmpty()) {
            out.add(String.format(Locale.ROOT, "Skipped %d of %d lines: not part of an IOMMU listing%s",
                    r.skipped().size(), r.lines(), verbose ? ":" : " (--verbose shows them)"));
            if (verbose) {
                r.skipped().forEach(l -> out.add("  skipped line " + l.number() + ": " + l.text().strip()));
            }
        }
        if (r.partial()) {
            out.add("Partial listing: lines are missing, so only what it shows is analysed:");
            r.gaps().forEach(g -> out.add("  " + g.reason()));
            new TreeSet<>(r.groupsNotFullyShown()).forEach(g -> out.add("  IOMMU group " + g
                    + " may hold more devices than shown"));
        }
        return out;
    }

    /** Adds the listing fields to a JSON document: partial, gaps, groups_not_fully_shown, skipped_lines (+ skipped). */
    public static void json(Map<String, Object> root, LoadedHost h, boolean verbose) {
        Optional<ListingReport> r = h.listing();
        root.put("partial", r.map(ListingReport::partial).orElse(false));
        List<Object> gaps = new ArrayList<>();
        r.ifPresent(x -> x.gaps().forEach(g -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("line", g.line());
            m.put("reason", g.reason());
            gaps.add(m);
        }));
        root.put("gaps", gaps);
        root.put("groups_not_fully_shown", r.map(x -> new TreeSet<>(x.groupsNotFullyShown()))
                .orElse(new TreeSet<>()));
        root.put("skipped_lines", r.map(x -> x.skipped().size()).orElse(0));
        if (verbose) {
            List<Object> skipped = new ArrayList<>();
            r.ifPresent(x -> x.skipped().forEach(l -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("line", l.number());
                m.put("text", l.text());
                skipped.add(m);
            }));
            root.put("skipped", skipped);
        }
    }
}
