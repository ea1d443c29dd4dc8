package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.CostProfile;
import io.gpuforge.domain.telemetry.CostReport;
import io.gpuforge.domain.telemetry.EnergyReport;
import io.gpuforge.domain.telemetry.Tariff;
import io.gpuforge.store.AtomicFiles;
import io.gpuforge.store.CostProfileRepository;
import io.gpuforge.store.StoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Currency;
import java.util.Locale;
import java.util.Optional;

/** The cost view's service: the stored cost profile, cost reports over any window, CSV export. Blocking. */
public final class CostService {

    private final CostProfileRepository repository;
    private final TelemetryHistory history;

    public CostService(CostProfileRepository repository, TelemetryHistory history) {
        this.repository = repository;
        this.history = history;
    }

    /** The stored profile, or energy only at 0.15 a kWh in the currency of this computer's locale. */
    public CostProfile profile() throws TelemetryService.Failure {
        try {
            return repository.get().orElseGet(() -> CostProfile.energyOnly(Tariff.flat(defaultCurrency(), 0.15)));
        } catch (StoreException e) {
            throw new TelemetryService.Failure("Cannot read the cost settings: " + e.getMessage(), e);
        }
    }

    public void save(CostProfile p) throws TelemetryService.Failure {
        try {
            repository.put(p);
        } catch (StoreException e) {
            throw new TelemetryService.Failure("Cannot save the cost settings: " + e.getMessage(), e);
        }
    }

    /** Energy, hardware and cloud comparison per GPU, VM and node over [from, to). */
    public CostReport report(Instant from, Instant to, CostProfile p) throws TelemetryService.Failure {
        EnergyReport e = history.energy(from, to, Optional.of(p.tariff()));
        return CostCalculator.of(e, p);
    }

    /** Writes the report as CSV, atomically (a reader never sees half a file). */
    public void exportCsv(CostReport r, Path file) throws TelemetryService.Failure {
        try {
            AtomicFiles.write(file, CostCalculator.csv(r).getBytes(StandardCharsets.UTF_8), false);
        } catch (IOException e) {
            throw new TelemetryService.Failure("Cannot write " + file + ": " + e.getMessage()
                    + " (choose a folder you can write to)", e);
        }
    }

    static String defaultCurrency() {
        try {
            Currency c = Currency.getInstance(Locale.getDefault());
            return c == null ? "USD" : c.getCurrencyCode();
        } catch (IllegalArgumentException e) {
            return "USD";
        }
    }
}
