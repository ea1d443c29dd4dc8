package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.CostProfile;
import io.gpuforge.domain.telemetry.CostReport;
import io.gpuforge.domain.telemetry.Tariff;
import io.gpuforge.ui.common.I18n;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The cost view's inputs as text (tariff, peak hours, hardware price, depreciation, cloud price, window) and the
 * report they give. {@link #profile()} checks them and says, in the UI's language, what is wrong. No I/O here.
 */
final class CostViewModel {

    /** The windows offered. */
    enum Window { DAY, WEEK, MONTH, THIS_MONTH }

    final StringProperty currency = new SimpleStringProperty("CNY");
    final StringProperty price = new SimpleStringProperty("0.60");
    final BooleanProperty peak = new SimpleBooleanProperty();
    final StringProperty peakFrom = new SimpleStringProperty("08:00");
    final StringProperty peakTo = new SimpleStringProperty("22:00");
    final StringProperty peakPrice = new SimpleStringProperty("1.00");
    final StringProperty hardware = new SimpleStringProperty("0");
    final StringProperty gpus = new SimpleStringProperty("1");
    final StringProperty years = new SimpleStringProperty("3");
    final StringProperty cloud = new SimpleStringProperty("");
    final ObjectProperty<Window> window = new SimpleObjectProperty<>(Window.DAY);
    final ObjectProperty<CostReport> report = new SimpleObjectProperty<>();
    private final I18n i18n;

    CostViewModel(I18n i18n) {
        this.i18n = i18n;
    }

    /** Shows a stored profile in the fields. */
    void load(CostProfile p) {
        Tariff t = p.tariff();
        currency.set(t.currency());
        price.set(num(t.pricePerKwh()));
        peak.set(t.peak().isPresent());
        t.peak().ifPresent(x -> {
            peakFrom.set(x.from().toString());
            peakTo.set(x.to().toString());
            peakPrice.set(num(x.pricePerKwh()));
        });
        hardware.set(num(p.hardwarePrice()));
        gpus.set(Integer.toString(p.gpusSharing()));
        years.set(num(p.depreciationDays() / 365.0));
        cloud.set(p.cloudPricePerGpuHour().isPresent() ? num(p.cloudPricePerGpuHour().getAsDouble()) : "");
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.4f", d)
                .replaceFirst("0+$", "");
    }

    /** The profile the fields describe, or what is wrong with them (as an exception's message). */
    CostProfile profile() {
        String cur = currency.get().strip().toUpperCase(Locale.ROOT);
        if (!cur.matches("[A-Z]{3}")) {
            throw new IllegalArgumentException(i18n.get("monitor.cost.badCurrency", currency.get()));
        }
        double p = number(price.get(), "monitor.cost.price");
        Optional<Tariff.Peak> pk = Optional.empty();
        if (peak.get()) {
            try {
                pk = Optional.of(new Tariff.Peak(LocalTime.parse(peakFrom.get().strip()),
                        LocalTime.parse(peakTo.get().strip()), number(peakPrice.get(), "monitor.cost.peakPrice")));
            } catch (DateTimeException e) {
                throw new IllegalArgumentException(i18n.get("monitor.cost.badTime"));
            }
        }
        double hw = number(hardware.get(), "monitor.cost.hardware");
        int n;
        try {
            n = Integer.parseInt(gpus.get().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(i18n.get("monitor.cost.badGpus"));
        }
        double y = number(years.get(), "monitor.cost.years");
        OptionalDouble c = cloud.get().isBlank() ? OptionalDouble.empty()
                : OptionalDouble.of(number(cloud.get(), "monitor.cost.cloud"));
        try {
            return new CostProfile(new Tariff(cur, p, pk, ZoneId.systemDefault()), hw, n,
                    (int) Math.max(1, Math.round(y * 365)), c);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(i18n.get("monitor.cost.invalid", e.getMessage()));
        }
    }

    private double number(String text, String fieldKey) {
        try {
            double d = Double.parseDouble(text.strip().replace(',', '.'));
            if (d < 0 || !Double.isFinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(i18n.get("monitor.cost.badNumber", i18n.get(fieldKey), text));
        }
    }

    /** The window chosen, ending now. */
    Instant[] range(Instant now) {
        switch (window.get()) {
            case WEEK:
                return new Instant[] {now.minus(Duration.ofDays(7)), now};
            case MONTH:
                return new Instant[] {now.minus(Duration.ofDays(30)), now};
            case THIS_MONTH:
                ZonedDateTime z = now.atZone(ZoneId.systemDefault());
                return new Instant[] {z.withDayOfMonth(1).toLocalDate().atStartOfDay(z.getZone()).toInstant(), now};
            default:
                return new Instant[] {now.minus(Duration.ofDays(1)), now};
        }
    }

    /** The summary line: cost here, in the cloud, per GPU-hour. */
    String summary(CostReport r) {
        CostReport.Line t = r.total();
        String cur = r.currency();
        String here = i18n.get("monitor.cost.summary", money(t.totalCost(), cur), money(t.energyCost(), cur),
                money(t.hardwareCost(), cur), String.format(Locale.ROOT, "%.1f", t.gpuHours()),
                t.costPerGpuHour().isPresent() ? money(t.costPerGpuHour().getAsDouble(), cur) : "–",
                money(r.profile().hardwarePerGpuDay(), cur));
        if (t.cloudCost().isPresent()) {
            double saved = t.savings().getAsDouble();
            here += " " + i18n.get(saved >= 0 ? "monitor.cost.cheaper" : "monitor.cost.dearer",
                    money(t.cloudCost().getAsDouble(), cur), money(Math.abs(saved), cur));
        }
        return here;
    }

    static String money(double v, String currency) {
        String symbol = currency.equals("CNY") || currency.equals("JPY") ? "¥" : currency.equals("USD") ? "$"
                : currency.equals("EUR") ? "€" : currency + " ";
        return symbol + String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%,.0f" : "%.2f", v);
    }
}
