package io.gpuforge.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The functions an {@code lspci -nnk} pasted into a log shows, with the driver each is on: enough to name the
 * function that keeps an IOMMU group from being viable (the HDMI audio on {@code snd_hda_intel}). Lines cut in the
 * paste are read as far as they go.
 */
final class LspciFunctions {

    record Function(String address, String description, Optional<String> vendorDevice, Optional<String> driver,
                    LogLines.Line line) {
    }

    private static final Pattern DEVICE = Pattern.compile(
            "^(?:\\S*[$#] )?(?:lspci.*?)?((?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]) (.+)$",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern IDS = Pattern.compile("\\[([0-9a-f]{4}:[0-9a-f]{4})\\]");
    private static final Pattern DRIVER = Pattern.compile("^kernel driver in use: (\\S+)");

    private LspciFunctions() {
    }

    static List<Function> of(List<LogLines.Line> lines) {
        List<Function> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = DEVICE.matcher(lines.get(i).text());
            if (!m.matches() || m.group(2).startsWith("-")) {
                continue;
            }
            String desc = m.group(2);
            Optional<String> ids = Optional.empty();
            Matcher id = IDS.matcher(desc.toLowerCase(java.util.Locale.ROOT));
            while (id.find()) {
                ids = Optional.of(id.group(1));
            }
            Optional<String> driver = Optional.empty();
            for (int j = i + 1; j < lines.size() && j <= i + 4; j++) {
                if (DEVICE.matcher(lines.get(j).text()).matches()) {
                    break;
                }
                Matcher d = DRIVER.matcher(lines.get(j).plain());
                if (d.find()) {
                    driver = Optional.of(d.group(1));
                    break;
                }
            }
            if (driver.isPresent() || ids.isPresent()) {
                String name = desc.replaceAll("\\s*\\[[0-9a-fA-F]{4}(:[0-9a-fA-F]{4})?\\]", "").replaceAll("\\s*\\(rev \\w+\\)", "")
                        .replaceAll("\\s*\\[[0-9a-fA-F:]{0,8}$", "");
                out.add(new Function(Match.withDomain(m.group(1).toLowerCase(java.util.Locale.ROOT)), name, ids, driver, lines.get(i)));
            }
        }
        return out;
    }
}
