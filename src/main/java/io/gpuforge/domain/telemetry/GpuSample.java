package io.gpuforge.domain.telemetry;

import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One reading of one GPU, timestamped when GPUForge received it. A metric the source did not report is absent
 * (never 0). A sample without any metric marks a gap: the source was lost at that time, and nothing is drawn or
 * integrated across it. {@code intervalMillis} is the sampling interval the source was asked for; samples further
 * apart than that allows are a gap too. Immutable.
 */
public final class GpuSample {

    private final GpuId gpu;
    private final long timeMillis;
    private final String name;
    private final SourceKind source;
    private final Optional<String> node;
    private final Optional<String> vm;
    private final Optional<String> address;
    private final int intervalMillis;
    private final double[] values;

    private GpuSample(Builder b) {
        this.gpu = Objects.requireNonNull(b.gpu, "gpu");
        this.timeMillis = b.timeMillis;
        this.name = b.name == null ? "" : b.name;
        this.source = Objects.requireNonNull(b.source, "source");
        this.node = Objects.requireNonNull(b.node);
        this.vm = Objects.requireNonNull(b.vm);
        this.address = Objects.requireNonNull(b.address);
        this.intervalMillis = b.intervalMillis;
        this.values = b.values.clone();
    }

    public static Builder builder(GpuId gpu, long timeMillis, SourceKind source) {
        return new Builder(gpu, timeMillis, source);
    }

    /** A gap marker: the source of {@code gpu} was lost at {@code timeMillis}. */
    public static GpuSample gap(GpuId gpu, long timeMillis, SourceKind source, String name, int intervalMillis) {
        return builder(gpu, timeMillis, source).name(name).intervalMillis(intervalMillis).build();
    }

    public GpuId gpu() {
        return gpu;
    }

    public long timeMillis() {
        return timeMillis;
    }

    public Instant time() {
        return Instant.ofEpochMilli(timeMillis);
    }

    /** The model ("NVIDIA GeForce RTX 4090"); empty when the source does not say. */
    public String name() {
        return name;
    }

    public SourceKind source() {
        return source;
    }

    /** The hypervisor node the GPU is in, where known. */
    public Optional<String> node() {
        return node;
    }

    /**
     * The GPU's PCI address on the host that reads it ({@code 0000:02:00.0}), where the source says: what ties a
     * reading identified by its UUID to the GPU a hypervisor lists by address.
     */
    public Optional<String> address() {
        return address;
    }

    /** The VM the GPU is passed through to (and read inside), where known. */
    public Optional<String> vm() {
        return vm;
    }

    public int intervalMillis() {
        return intervalMillis;
    }

    public OptionalDouble get(GpuMetric m) {
        double v = values[m.ordinal()];
        return Double.isNaN(v) ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** The value, or NaN when absent (for tight loops). */
    public double raw(GpuMetric m) {
        return values[m.ordinal()];
    }

    public boolean has(GpuMetric m) {
        return !Double.isNaN(values[m.ordinal()]);
    }

    /** True for a gap marker (no metric at all). */
    public boolean isGap() {
        for (double v : values) {
            if (!Double.isNaN(v)) {
                return false;
            }
        }
        return true;
    }

    public Map<GpuMetric, Double> readings() {
        Map<GpuMetric, Double> m = new EnumMap<>(GpuMetric.class);
        for (GpuMetric x : GpuMetric.values()) {
            if (has(x)) {
                m.put(x, values[x.ordinal()]);
            }
        }
        return m;
    }

    public Builder toBuilder() {
        Builder b = new Builder(gpu, timeMillis, source).name(name).node(node).vm(vm).address(address)
                .intervalMillis(intervalMillis);
        System.arraycopy(values, 0, b.values, 0, values.length);
        return b;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GpuSample)) {
            return false;
        }
        GpuSample s = (GpuSample) o;
        return gpu.equals(s.gpu) && timeMillis == s.timeMillis && name.equals(s.name) && source == s.source
                && node.equals(s.node) && vm.equals(s.vm) && address.equals(s.address) && intervalMillis == s.intervalMillis
                && Arrays.equals(values, s.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(gpu, timeMillis, source) * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "GpuSample[" + gpu + " @" + time() + " " + name + " " + readings() + " via " + source.json() + "]";
    }

    /** Builds a sample; metrics not set stay absent. */
    public static final class Builder {
        private final GpuId gpu;
        private final long timeMillis;
        private final SourceKind source;
        private String name = "";
        private Optional<String> node = Optional.empty();
        private Optional<String> vm = Optional.empty();
        private Optional<String> address = Optional.empty();
        private int intervalMillis = 1000;
        private final double[] values = new double[GpuMetric.count()];

        private Builder(GpuId gpu, long timeMillis, SourceKind source) {
            this.gpu = gpu;
            this.timeMillis = timeMillis;
            this.source = source;
            Arrays.fill(values, Double.NaN);
        }

        public Builder name(String n) {
            this.name = n;
            return this;
        }

        public Builder node(Optional<String> n) {
            this.node = n;
            return this;
        }

        public Builder vm(Optional<String> v) {
            this.vm = v;
            return this;
        }

        public Builder address(Optional<String> a) {
            this.address = a;
            return this;
        }

        public Builder intervalMillis(int ms) {
            this.intervalMillis = ms;
            return this;
        }

        /** Sets a reading; NaN or infinite leaves it absent. */
        public Builder set(GpuMetric m, double v) {
            values[m.ordinal()] = Double.isFinite(v) ? v : Double.NaN;
            return this;
        }

        public Builder set(GpuMetric m, OptionalDouble v) {
            return set(m, v.orElse(Double.NaN));
        }

        public GpuSample build() {
            return new GpuSample(this);
        }
    }
}
