package io.gpuforge.domain.telemetry;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * What a kWh costs: flat, or a peak price between two times of day and an off-peak price otherwise, in a
 * currency, at a time zone.
 */
public record Tariff(String currency, double pricePerKwh, Optional<Peak> peak, ZoneId zone) {

    /** The peak hours ({@code from} inclusive, {@code to} exclusive; may wrap midnight) and their price. */
    public record Peak(LocalTime from, LocalTime to, double pricePerKwh) {
        public Peak {
            Objects.requireNonNull(from);
            Objects.requireNonNull(to);
        }

        boolean contains(LocalTime t) {
            return from.isBefore(to) ? !t.isBefore(from) && t.isBefore(to) : !t.isBefore(from) || t.isBefore(to);
        }
    }

    public Tariff {
        Objects.requireNonNull(currency);
        Objects.requireNonNull(peak);
        Objects.requireNonNull(zone);
        if (!(pricePerKwh >= 0) || peak.map(p -> !(p.pricePerKwh() >= 0)).orElse(false)) {
            throw new IllegalArgumentException("a tariff's prices must be numbers of 0 or more");
        }
    }

    public static Tariff flat(String currency, double pricePerKwh) {
        return new Tariff(currency, pricePerKwh, Optional.empty(), ZoneId.systemDefault());
    }

    /** The price of a kWh used at {@code t}. */
    public double priceAt(long epochMillis) {
        if (peak.isEmpty()) {
            return pricePerKwh;
        }
        LocalTime local = Instant.ofEpochMilli(epochMillis).atZone(zone).toLocalTime();
        return peak.get().contains(local) ? peak.get().pricePerKwh() : pricePerKwh;
    }
}
