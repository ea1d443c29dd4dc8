package io.gpuforge.app.monitor;

import io.gpuforge.domain.telemetry.CostProfile;
import io.gpuforge.domain.telemetry.CostReport;
import io.gpuforge.domain.telemetry.EnergyReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The cost of the GPUs over a window, from the energy report (the tariff already applied per reading) and the cost
 * profile: hardware depreciation for the window's GPU time (the window times the GPUs, used or not), the total per
 * measured GPU-hour, and the cloud price for the same measured GPU-hours. Pure arithmetic; CSV for export.
 */
public final class CostCalculator {

    private static final double MILLIS_PER_HOUR = 3_600_000.0;
    private static final double MILLIS_PER_DAY = 86_400_000.0;

    private CostCalculator() {
    }

    /** The report; {@code energy} must have been computed with {@code profile}'s tariff. */
    public static CostReport of(EnergyReport energy, CostProfile profile) {
        if (energy.currency().isPresent() && !energy.currency().get().equals(profile.currency())) {
            throw new IllegalArgumentException("the energy was priced in " + energy.currency().get()
                    + ", the cost profile is in " + profile.currency());
        }
        return new CostReport(energy.from(), energy.to(), profile, lines(energy.gpus(), profile),
                lines(energy.vms(), profile), lines(energy.nodes(), profile), line(energy.total(), profile));
    }

    private static List<CostReport.Line> lines(List<EnergyReport.Line> in, CostProfile p) {
        List<CostReport.Line> out = new ArrayList<>();
        in.forEach(l -> out.add(line(l, p)));
        return out;
    }

    static CostReport.Line line(EnergyReport.Line e, CostProfile p) {
        long windowMillis = e.covered().toMillis() + e.gaps().toMillis();
        double hardware = p.hardwarePerGpuDay() * windowMillis / MILLIS_PER_DAY;
        double gpuHours = e.covered().toMillis() / MILLIS_PER_HOUR;
        OptionalDouble cloud = p.cloudPricePerGpuHour().isPresent()
                ? OptionalDouble.of(p.cloudPricePerGpuHour().getAsDouble() * gpuHours) : OptionalDouble.empty();
        return new CostReport.Line(e.key(), e.label(), e.kilowattHours(), e.cost().orElse(0.0), gpuHours,
                windowMillis / MILLIS_PER_HOUR, hardware, e.gaps(), cloud);
    }

    /** The report as CSV: one row per GPU, VM, node and the total, with the window and the currency. */
    public static String csv(CostReport r) {
        StringBuilder b = new StringBuilder();
        b.append("scope,key,label,from,to,currency,energy_kwh,energy_cost,hardware_cost,total_cost,gpu_hours,"
                + "window_gpu_hours,unmeasured_h,cost_per_gpu_hour,cloud_cost,cloud_minus_here\n");
        rows(b, "gpu", r.gpus(), r);
        rows(b, "vm", r.vms(), r);
        rows(b, "node", r.nodes(), r);
        rows(b, "total", List.of(r.total()), r);
        return b.toString();
    }

    private static void rows(StringBuilder b, String scope, List<CostReport.Line> lines, CostReport r) {
        for (CostReport.Line l : lines) {
            b.append(scope).append(',').append(cell(l.key())).append(',').append(cell(l.label())).append(',')
                    .append(r.from()).append(',').append(r.to()).append(',').append(cell(r.currency())).append(',')
                    .append(num(l.kwh(), 4)).append(',').append(num(l.energyCost(), 4)).append(',')
                    .append(num(l.hardwareCost(), 4)).append(',').append(num(l.totalCost(), 4)).append(',')
                    .append(num(l.gpuHours(), 4)).append(',').append(num(l.windowGpuHours(), 4)).append(',')
                    .append(num(hours(l.gaps()), 4)).append(',')
                    .append(l.costPerGpuHour().isPresent() ? num(l.costPerGpuHour().getAsDouble(), 4) : "").append(',')
                    .append(l.cloudCost().isPresent() ? num(l.cloudCost().getAsDouble(), 4) : "").append(',')
                    .append(l.savings().isPresent() ? num(l.savings().getAsDouble(), 4) : "").append('\n');
        }
    }

    private static double hours(Duration d) {
        return d.toMillis() / MILLIS_PER_HOUR;
    }

    private static String num(double v, int places) {
        return String.format(Locale.ROOT, "%." + places + "f", v);
    }

    /** A CSV cell a spreadsheet reads as text ({@link io.gpuforge.domain.CsvCell}). */
    static String cell(String s) {
        return io.gpuforge.domain.CsvCell.of(s);
    }

    /** The window of a report in days (for labels). */
    public static double days(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / MILLIS_PER_DAY;
    }
}
