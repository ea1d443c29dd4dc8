package io.gpuforge.telemetry;

import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the lines {@code nvidia-smi --query-gpu=… --format=csv[,noheader][,nounits]} prints, as every driver from
 * R470 on prints them: values with or without units, a header line (with units in brackets) where the driver or
 * the caller left it on, {@code [N/A]}, bare {@code N/A}, {@code [Not Supported]}, {@code ERR!},
 * {@code [GPU requires reset]}, {@code [Unknown Error]}, {@code [Requested functionality has been deprecated]}:
 * each of those is an absent reading, never 0. Rows shorter than the query (a caller that answers fewer columns)
 * fill what they have. Lines that are not rows say what they are ({@link Line}). One instance per stream: a header
 * line changes how later rows are read.
 */
public final class NvidiaSmiCsv {

    /** What one line was. */
    public sealed interface Line {
    }

    /** A GPU's readings. */
    public record Row(String index, Optional<String> uuid, String name, Optional<String> busId, double[] values)
            implements Line {
        public GpuId id(String host) {
            return new GpuId(host, uuid.or(() -> busId).orElse("index:" + index));
        }

        public GpuSample.Builder sample(String host, long timeMillis, SourceKind source) {
            GpuSample.Builder b = GpuSample.builder(id(host), timeMillis, source).name(name).address(busId);
            for (GpuMetric m : GpuMetric.values()) {
                b.set(m, values[m.ordinal()]);
            }
            return b;
        }
    }

    /** The column names (a header line); nothing to record. */
    public record Header(List<String> names) implements Line {
    }

    /** The driver does not know a field: ask again without it. */
    public record FieldRefused(String field) implements Line {
    }

    /** nvidia-smi says something is wrong (no driver, no devices, a GPU lost): the user must see it. */
    public record Problem(String message) implements Line {
    }

    /** An empty line, or one that is not a row of this query (logged, skipped). */
    public record Noise(String text) implements Line {
    }

    private static final Pattern REFUSED = Pattern.compile("Field \"([^\"]+)\" is not a valid field to query");
    private static final Pattern NUMBER = Pattern.compile("^([-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*([A-Za-z%°]*)$");
    private static final Pattern HEX = Pattern.compile("^0[xX]([0-9a-fA-F]{1,16})$");
    private static final Pattern BUS = Pattern.compile("[0-9a-f]{8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    private static final int MAX_LINE = 16 * 1024;

    private final NvidiaSmiFields fields;
    private final Map<String, Optional<GpuMetric>> columns;
    /** The asked names in the order the rows have them (a header may reorder). */
    private List<String> order;

    public NvidiaSmiCsv(NvidiaSmiFields fields) {
        this.fields = fields;
        this.order = fields.asked();
        this.columns = fields.columns();
    }

    public NvidiaSmiFields fields() {
        return fields;
    }

    public Line parse(String raw) {
        String line = raw.length() > MAX_LINE ? raw.substring(0, MAX_LINE) : raw;
        line = line.strip();
        if (line.isEmpty()) {
            return new Noise("");
        }
        if (line.indexOf('"') >= 0) { // a row has no quotes: only then can it be nvidia-smi refusing a field
            Matcher refused = REFUSED.matcher(line);
            if (refused.find()) {
                return new FieldRefused(refused.group(1));
            }
        }
        List<String> cells = split(line);
        if (looksLikeHeader(cells)) {
            List<String> names = new ArrayList<>();
            for (String c : cells) {
                names.add(c.replaceAll("\\s*\\[[^\\]]*\\]$", "").strip());
            }
            if (names.stream().allMatch(n -> fields.asked().contains(n))) {
                order = names;
            }
            return new Header(names);
        }
        if (cells.size() < 2 || !isIndex(cells.get(0))) {
            return problemOrNoise(line);
        }
        if (cells.size() > order.size()) {
            return new Noise(line);
        }
        double[] values = new double[GpuMetric.count()];
        Arrays.fill(values, Double.NaN);
        String index = "";
        String name = "";
        Optional<String> uuid = Optional.empty();
        Optional<String> bus = Optional.empty();
        for (int i = 0; i < cells.size(); i++) {
            String col = order.get(i);
            String cell = cells.get(i);
            switch (col) {
                case NvidiaSmiFields.INDEX:
                    index = cell;
                    break;
                case NvidiaSmiFields.NAME:
                    name = absent(cell) ? "" : cell;
                    break;
                case NvidiaSmiFields.UUID:
                    uuid = absent(cell) ? Optional.empty() : Optional.of(cell);
                    break;
                case NvidiaSmiFields.BUS_ID:
                    bus = absent(cell) ? Optional.empty() : Optional.of(normaliseBus(cell));
                    break;
                default:
                    Optional<GpuMetric> m = columns.getOrDefault(col, Optional.empty());
                    if (m.isPresent()) {
                        values[m.get().ordinal()] = number(cell);
                    }
            }
        }
        return new Row(index, uuid, name, bus, values);
    }

    private boolean looksLikeHeader(List<String> cells) {
        return !cells.isEmpty() && cells.get(0).equals(NvidiaSmiFields.INDEX);
    }

    private static boolean isIndex(String s) {
        if (s.isEmpty() || s.length() > 4) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static Line problemOrNoise(String line) {
        String l = line.toLowerCase(Locale.ROOT);
        if (l.contains("nvidia-smi has failed") || l.contains("failed to initialize nvml")
                || l.contains("no devices were found") || l.contains("unable to determine the device handle")
                || l.contains("gpu is lost") || l.contains("couldn't communicate with the nvidia driver")
                || l.contains("insufficient permissions") || l.contains("not found") || l.contains("no such file")) {
            return new Problem(line);
        }
        return new Noise(line);
    }

    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= line.length(); i++) {
            if (i == line.length() || line.charAt(i) == ',') {
                out.add(line.substring(start, i).strip());
                start = i + 1;
            }
        }
        return out;
    }

    static boolean absent(String cell) {
        String c = cell.strip();
        return c.isEmpty() || c.startsWith("[") || c.equalsIgnoreCase("N/A") || c.equalsIgnoreCase("ERR!")
                || c.equalsIgnoreCase("Unknown Error");
    }

    /** A value with or without its unit ({@code 84.24 W}, {@code 7 %}, {@code 0x1}), or NaN when absent. */
    static double number(String cell) {
        String c = cell.strip();
        if (absent(c)) {
            return Double.NaN;
        }
        if (plain(c)) {
            return Double.parseDouble(c); // the usual case with nounits: digits and a point, nothing to match
        }
        Matcher hex = HEX.matcher(c);
        if (hex.matches()) {
            return (double) Long.parseUnsignedLong(hex.group(1), 16);
        }
        Matcher m = NUMBER.matcher(c);
        if (!m.matches()) {
            return Double.NaN;
        }
        try {
            double v = Double.parseDouble(m.group(1));
            return Double.isFinite(v) ? v : Double.NaN;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static boolean plain(String c) {
        int digits = 0;
        int points = 0;
        for (int i = 0; i < c.length(); i++) {
            char ch = c.charAt(i);
            if (ch >= '0' && ch <= '9') {
                digits++;
            } else if (ch == '.') {
                points++;
            } else {
                return false;
            }
        }
        return digits > 0 && digits <= 15 && points <= 1;
    }

    /** {@code 00000000:01:00.0} → {@code 0000:01:00.0}, the form the rest of GPUForge uses. */
    static String normaliseBus(String bus) {
        String b = bus.strip().toLowerCase(Locale.ROOT);
        if (BUS.matcher(b).matches()) {
            return b.substring(4);
        }
        return b;
    }
}
