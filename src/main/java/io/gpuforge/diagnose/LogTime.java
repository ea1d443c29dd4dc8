package io.gpuforge.diagnose;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a log line was written, as its own prefix says: seconds on one of four clocks, comparable only on the same
 * clock of the same log (a kernel's {@code [ 5682.626559]} counts from boot; {@code dmesg -T}'s and ISO stamps are
 * dates; a syslog or journal stamp has no year).
 */
final class LogTime {

    /** A moment on a clock. */
    record Stamp(Clock clock, double seconds) {
    }

    enum Clock { UPTIME, DATE, SYSLOG }

    private static final Pattern UPTIME = Pattern.compile("^\\[ *(\\d{1,9}\\.\\d{1,9})\\]");
    /** {@code [wed jun 12 02:42:37 2024]} (dmesg -T), lower case as {@link LogLines#plain} makes it. */
    private static final Pattern DMESG_T = Pattern.compile(
            "^\\[\\w{3} (\\w{3}) +(\\d{1,2}) (\\d\\d):(\\d\\d):(\\d\\d) (\\d{4})\\]");
    /** {@code 2021-11-02t02:15:38.830552z}, anywhere: QEMU writes it inside libvirt's and KubeVirt's messages. */
    private static final Pattern ISO = Pattern.compile(
            "(?<!\\d)(\\d{4})-(\\d\\d)-(\\d\\d)[t ](\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d{1,9})?)");
    /** {@code nov 20 21:02:14} (syslog, journalctl's short form, short-precise with a fraction). */
    private static final Pattern SYSLOG = Pattern.compile(
            "^(\\w{3}) +(\\d{1,2}) (\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d{1,9})?) ");
    private static final Map<String, Integer> MONTHS = Map.ofEntries(Map.entry("jan", 1), Map.entry("feb", 2),
            Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5), Map.entry("jun", 6), Map.entry("jul", 7),
            Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10), Map.entry("nov", 11), Map.entry("dec", 12));

    private LogTime() {
    }

    /** The stamp a line's comparable text ({@link LogLines#plain}) begins with, or holds in ISO form. */
    static Optional<Stamp> of(String plain) {
        if (plain.isEmpty()) {
            return Optional.empty();
        }
        char c = plain.charAt(0);
        if (c == '[') {
            Matcher m = UPTIME.matcher(plain);
            if (m.find()) {
                return Optional.of(new Stamp(Clock.UPTIME, Double.parseDouble(m.group(1))));
            }
            m = DMESG_T.matcher(plain);
            if (m.find() && MONTHS.containsKey(m.group(1))) {
                return date(Integer.parseInt(m.group(6)), MONTHS.get(m.group(1)), Integer.parseInt(m.group(2)),
                        m.group(3), m.group(4), m.group(5));
            }
        }
        if (Character.isLetter(c)) {
            Matcher m = SYSLOG.matcher(plain);
            if (m.find() && MONTHS.containsKey(m.group(1))) {
                double s = ((MONTHS.get(m.group(1)) * 31 + Integer.parseInt(m.group(2))) * 24.0
                        + Integer.parseInt(m.group(3))) * 3600 + Integer.parseInt(m.group(4)) * 60
                        + Double.parseDouble(m.group(5));
                return Optional.of(new Stamp(Clock.SYSLOG, s));
            }
        }
        if (plain.indexOf('-') < 0) {
            return Optional.empty();
        }
        Matcher m = ISO.matcher(plain);
        if (m.find()) {
            return date(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                    m.group(4), m.group(5), m.group(6));
        }
        return Optional.empty();
    }

    private static Optional<Stamp> date(int year, int month, int day, String h, String min, String s) {
        try {
            double sec = Double.parseDouble(s);
            long epoch = LocalDateTime.of(year, month, day, Integer.parseInt(h), Integer.parseInt(min), (int) sec)
                    .toEpochSecond(ZoneOffset.UTC);
            return Optional.of(new Stamp(Clock.DATE, epoch + (sec - Math.floor(sec))));
        } catch (java.time.DateTimeException e) {
            return Optional.empty(); // 2024-13-45: not a date, whatever it is
        }
    }
}
