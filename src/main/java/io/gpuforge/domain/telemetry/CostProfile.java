package io.gpuforge.domain.telemetry;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What running the GPUs costs besides nothing: the electricity tariff, the hardware's price spread over its
 * depreciation period (a server's price shared by the GPUs in it), and the price of a cloud GPU-hour to compare
 * with (where the user gave one).
 */
public record CostProfile(Tariff tariff, double hardwarePrice, int gpusSharing, int depreciationDays,
                          OptionalDouble cloudPricePerGpuHour) {

    public CostProfile {
        Objects.requireNonNull(tariff);
        Objects.requireNonNull(cloudPricePerGpuHour);
        if (!(hardwarePrice >= 0) || Double.isInfinite(hardwarePrice)) {
            throw new IllegalArgumentException("the hardware price must be a number of 0 or more, not " + hardwarePrice);
        }
        if (gpusSharing < 1 || gpusSharing > 64) {
            throw new IllegalArgumentException("a server holds 1 to 64 GPUs, not " + gpusSharing);
        }
        if (depreciationDays < 1 || depreciationDays > 36_500) {
            throw new IllegalArgumentException("the depreciation period is 1 day to 100 years, not " + depreciationDays
                    + " days");
        }
        if (cloudPricePerGpuHour.isPresent() && !(cloudPricePerGpuHour.getAsDouble() >= 0)) {
            throw new IllegalArgumentException("the cloud price must be a number of 0 or more");
        }
    }

    /** No hardware price and no cloud price: energy only, at {@code pricePerKwh}. */
    public static CostProfile energyOnly(Tariff tariff) {
        return new CostProfile(tariff, 0, 1, 3 * 365, OptionalDouble.empty());
    }

    /** The hardware's cost of one GPU for one day (e.g. ¥15,000 over 3 years: ¥13.70 a day). */
    public double hardwarePerGpuDay() {
        return hardwarePrice / gpusSharing / depreciationDays;
    }

    public String currency() {
        return tariff.currency();
    }
}
