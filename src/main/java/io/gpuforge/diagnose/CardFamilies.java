package io.gpuforge.diagnose;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The AMD families that do not reset themselves between VMs and that vendor-reset handles (its device table):
 * Polaris 10/11/12, Vega 10 and 20, Navi 10, 12 and 14. Told by the PCI id in a log ({@code [1002:67df]}) or by a
 * name people write ("Polaris 10", "RX 580", "Radeon VII").
 */
final class CardFamilies {

    record Family(String name, Pattern ids, Pattern names) {
    }

    static final List<Family> RESET_BUG = List.of(
            new Family("Polaris 10", ids("67c[0-9a-f]|67d[0-9a-f]|6fdf"),
                    names("polaris ?10|rx ?(470|480|570|580|590)\\b|wx ?(5100|7100)")),
            new Family("Polaris 11", ids("67e[0-9a-f]|67f[0-9a-f]"), names("polaris ?11|rx ?(460|560)\\b|wx ?4100")),
            new Family("Polaris 12", ids("69[89][0-9a-f]"), names("polaris ?12|rx ?(540|550)\\b|wx ?(2100|3100)")),
            new Family("Vega 10", ids("686[0-9a-f]|687[0-9a-f]"), names("vega ?10|vega ?(56|64)\\b|frontier edition")),
            new Family("Vega 20", ids("66a[0-9a-f]"), names("vega ?20|radeon vii|mi50|mi60")),
            new Family("Navi 10", ids("731[0-9a-f]"), names("navi ?10\\b|rx ?(5600|5700)\\b")),
            new Family("Navi 12", ids("7360|7362"), names("navi ?12\\b|pro v520")),
            new Family("Navi 14", ids("734[0-9a-f]"), names("navi ?14\\b|rx ?(5300|5500)\\b")));

    private CardFamilies() {
    }

    /** The family a log names, by a {@code 1002:xxxx} id first, else by a name in the text. */
    static Optional<Family> resetBug(List<LogLines.Line> lines) {
        for (Family f : RESET_BUG) {
            for (LogLines.Line l : lines) {
                if (f.ids().matcher(l.plain()).find()) {
                    return Optional.of(f);
                }
            }
        }
        for (Family f : RESET_BUG) {
            for (LogLines.Line l : lines) {
                if (f.names().matcher(l.plain()).find()) {
                    return Optional.of(f);
                }
            }
        }
        return Optional.empty();
    }

    /** The {@code 1002:xxxx} id the log shows for a family, for a udev rule. */
    static Optional<String> deviceId(Family f, List<LogLines.Line> lines) {
        for (LogLines.Line l : lines) {
            var m = f.ids().matcher(l.plain());
            if (m.find()) {
                return Optional.of(m.group().substring(5));
            }
        }
        return Optional.empty();
    }

    private static Pattern ids(String devices) {
        return Pattern.compile("\\b1002:(" + devices + ")\\b");
    }

    private static Pattern names(String regex) {
        return Pattern.compile("\\b(" + regex + ")");
    }
}
