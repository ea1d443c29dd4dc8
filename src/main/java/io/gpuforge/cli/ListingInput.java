package io.gpuforge.cli;

import io.gpuforge.domain.IommuState;
import io.gpuforge.domain.PciInventory;
import io.gpuforge.host.ListingParser;
import io.gpuforge.host.ProbeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** {@code --listing FILE|-}: a pasted IOMMU listing (optionally with {@code lspci -nnk}) as the host source. */
final class ListingInput {

    private ListingInput() {
    }

    static LoadedHost load(String listing, CliServices services) throws ProbeException, IOException {
        byte[] data = listing.equals("-") ? services.stdin().readAllBytes() : Files.readAllBytes(Path.of(listing));
        PciInventory inv = ListingParser.parse(data);
        return new LoadedHost("listing:" + listing, inv.groups().isEmpty() ? IommuState.DISABLED
                : IommuState.ENABLED, inv, Optional.empty());
    }
}
