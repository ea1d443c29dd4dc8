package io.gpuforge.host.listing;

import io.gpuforge.host.ProbeException;

import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.pci.PciInventory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * Reads the IOMMU listings people paste in forums, in their many shapes: {@code IOMMU Group N:} blocks
 * (tabs, spaces or none), one-line {@code IOMMU group N 00:01.0 …} or {@code Group: N addr …},
 * {@code /sys/kernel/iommu_groups/N/devices/…} paths, {@code ls -l} and {@code tree} of that directory,
 * {@code Adding to iommu group N} kernel messages, tables with a group column ({@code pvesh get
 * /nodes/NODE/hardware/pci}, Markdown), tree drawings, with or without {@code [cccc]} /
 * {@code [vvvv:dddd]} / a domain, sorted or not; with lspci -nnk output before, inside or after, whose
 * drivers and names are merged in. What is not part of the listing (prose, prompts and commands, fences,
 * code tags, line numbers, quote marks) is skipped and reported; where lines were left out the result is
 * partial and says where. Only input with no device in an IOMMU group is refused.
 */
public final class ListingParser {

    public static final int MAX_BYTES = 4 * 1024 * 1024;

    private ListingParser() {
    }

    /** The inventory of a listing given as bytes (see {@link #read(byte[])}). */
    public static PciInventory parse(byte[] input) throws ProbeException {
        return read(input).inventory();
    }

    /** The inventory of a listing (see {@link #read(String)}). */
    public static PciInventory parse(String text) throws ProbeException {
        return read(text).inventory();
    }

    /** Reads bytes, checking first that they are a text of sensible size. */
    public static ListingReport read(byte[] input) throws ProbeException {
        if (input.length == 0) {
            throw new ProbeException("The listing is empty");
        }
        if (input.length > MAX_BYTES) {
            throw new ProbeException("The listing is " + input.length / (1024 * 1024)
                    + " MB; an IOMMU listing is a few kB (at most " + MAX_BYTES / (1024 * 1024) + " MB accepted)");
        }
        int control = 0;
        for (byte b : input) {
            if (b == 0) {
                throw new ProbeException("The listing is binary data (it contains NUL bytes), not text");
            }
            if ((b & 0xff) < 0x09 || ((b & 0xff) > 0x0d && (b & 0xff) < 0x20)) {
                control++;
            }
        }
        if (control > input.length / 20) {
            throw new ProbeException("The listing is binary data, not text");
        }
        return read(new String(input, StandardCharsets.UTF_8));
    }

    /** Reads a listing; fails only when no line names a device in an IOMMU group. */
    public static ListingReport read(String text) throws ProbeException {
        return new ListingReader().read(text);
    }
}
