package io.gpuforge.store;

import io.gpuforge.domain.telemetry.CostProfile;
import io.gpuforge.domain.telemetry.Tariff;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Optional;
import java.util.OptionalDouble;

/** The one cost profile (tariff, hardware, cloud price) of the GPU monitor's cost view. */
public final class CostProfileRepository {

    private final Database db;

    public CostProfileRepository(Database db) {
        this.db = db;
    }

    public Optional<CostProfile> get() throws StoreException {
        return db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT currency, price_kwh, peak_from, peak_to,"
                    + " peak_price_kwh, zone, hardware_price, gpus_sharing, depreciation_days, cloud_price_gpu_h"
                    + " FROM cost_profile WHERE id = 1"); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                try {
                    Optional<Tariff.Peak> peak = rs.getString(3) == null ? Optional.empty()
                            : Optional.of(new Tariff.Peak(LocalTime.parse(rs.getString(3)),
                                    LocalTime.parse(rs.getString(4)), rs.getDouble(5)));
                    Tariff t = new Tariff(rs.getString(1), rs.getDouble(2), peak, ZoneId.of(rs.getString(6)));
                    double cloud = rs.getDouble(10);
                    OptionalDouble cloudPrice = rs.wasNull() ? OptionalDouble.empty() : OptionalDouble.of(cloud);
                    return Optional.of(new CostProfile(t, rs.getDouble(7), rs.getInt(8), rs.getInt(9), cloudPrice));
                } catch (IllegalArgumentException | DateTimeException e) {
                    throw new SQLException("the stored cost profile is damaged: " + e.getMessage(), e);
                }
            }
        });
    }

    public void put(CostProfile p) throws StoreException {
        db.with(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO cost_profile (id, currency,"
                    + " price_kwh, peak_from, peak_to, peak_price_kwh, zone, hardware_price, gpus_sharing,"
                    + " depreciation_days, cloud_price_gpu_h) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                Tariff t = p.tariff();
                ps.setString(1, t.currency());
                ps.setDouble(2, t.pricePerKwh());
                if (t.peak().isPresent()) {
                    ps.setString(3, t.peak().get().from().toString());
                    ps.setString(4, t.peak().get().to().toString());
                    ps.setDouble(5, t.peak().get().pricePerKwh());
                } else {
                    ps.setNull(3, Types.VARCHAR);
                    ps.setNull(4, Types.VARCHAR);
                    ps.setNull(5, Types.REAL);
                }
                ps.setString(6, t.zone().getId());
                ps.setDouble(7, p.hardwarePrice());
                ps.setInt(8, p.gpusSharing());
                ps.setInt(9, p.depreciationDays());
                if (p.cloudPricePerGpuHour().isPresent()) {
                    ps.setDouble(10, p.cloudPricePerGpuHour().getAsDouble());
                } else {
                    ps.setNull(10, Types.REAL);
                }
                return ps.executeUpdate();
            }
        });
    }
}
