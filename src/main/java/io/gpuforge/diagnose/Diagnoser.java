package io.gpuforge.diagnose;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Evidence;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.domain.diagnose.LogSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names the cause of a failed GPU VM start from logs: every line of every log against the {@link Signatures}
 * table; each cause a strong line shows (a line of a log whose side can show it, never a comment) becomes a finding
 * with its lines, ranked by what they weigh ({@link Weighing}), then by the table; when none does, the diagnosis is
 * {@code unknown} with the lines that looked relevant, guessing nothing.
 */
public final class Diagnoser {

    /** At most this many evidence lines per cause: strong ones, then a few supporting ones, log lines before prose. */
    static final int MAX_EVIDENCE = 8;
    static final int MAX_SUPPORTING = 3;
    static final int MAX_RELEVANT = 20;

    /**
     * A line only a host writes: vfio-pci handing a device over, the IOMMU, a PCIe port, KVM, Proxmox's and libvirt's
     * daemons, a task log.
     */
    private static final Pattern HOST_LINE = Pattern.compile("\\bvfio-pci \\S+:|\\bvfio \\S+:|\\bdmar:|\\bamd-vi:"
            + "|\\bpcieport \\S+:|\\bkvm: -device|\\bkvm \\[\\d+\\]:|\\b(pvedaemon|pvestatd|qmeventd|qemu-server|libvirtd"
            + "|virtqemud)\\b|^task (error|ok)\\b");
    /** What only a guest, or a person describing one, writes. */
    private static final Pattern GUEST_WORDS = Pattern.compile("\\bcode ?(43|10|12)\\b|device manager|windows|guest"
            + "|nvidia-smi|\\bvm\\b");

    private Diagnoser() {
    }

    /**
     * Diagnoses the logs.
     *
     * @param inputs the logs' text, each already bounded by whoever read it
     * @param collected what was read of each (and what could not be), passed through to the diagnosis; an input
     *     without an entry gets one made from its text
     */
    public static Diagnosis diagnose(List<LogInput> inputs, List<Collected> collected) {
        List<LogLines.Line> all = new ArrayList<>();
        List<Collected> read = new ArrayList<>(collected);
        java.util.Map<String, io.gpuforge.domain.diagnose.Origin> origins = new java.util.HashMap<>();
        for (LogInput in : inputs) {
            origins.put(in.name(), in.origin());
            List<LogLines.Line> plain = LogLines.of(in.name(), LogSource.PASTED, in.text());
            LogSource source = in.source().orElseGet(() -> SourceGuess.of(plain));
            List<LogLines.Line> lines = plain.stream().map(l -> l.from(source)).toList();
            all.addAll(lines);
            int index = indexOf(read, in.name());
            Collected c = index >= 0 ? read.get(index) : new Collected(in.name(), Message.of("log.named", in.name()),
                    source, in.text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length, 0,
                    in.text().split("\r\n|\r|\n", -1).length, Optional.empty(), 0);
            c = c.as(source, c.millis());
            if (index >= 0) {
                read.set(index, c);
            } else {
                read.add(c);
            }
        }
        List<List<LogLines.Line>> strongOf = Signatures.TABLE.stream().map(c -> matching(all, c.strong())).toList();
        // whose logs are a host's is asked only when a guest's cause has lines to weigh
        boolean guestLines = java.util.stream.IntStream.range(0, strongOf.size()).anyMatch(i ->
                Signatures.TABLE.get(i).side() == Signatures.Side.GUEST && !strongOf.get(i).isEmpty());
        java.util.Set<String> hostLogs = guestLines ? hostLogs(all, origins) : java.util.Set.of();
        Weighing weighing = new Weighing(all, strongOf.stream().flatMap(List::stream).toList(), origins);
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < Signatures.TABLE.size(); i++) {
            Signatures.Cause cause = Signatures.TABLE.get(i);
            List<LogLines.Line> strong = strongOf.get(i).stream()
                    .filter(l -> sideFits(cause.side(), l.input(), hostLogs, origins)).toList();
            if (strong.isEmpty()) {
                continue;
            }
            List<LogLines.Line> supporting = matching(all, cause.supporting()).stream()
                    .filter(l -> !strong.contains(l)).toList();
            Match m = new Match(cause, strong, supporting, all);
            Advice.Said said = Advice.of(m);
            findings.add(new Finding(cause.id(), Message.of("cause." + cause.id() + ".title"), evidence(m, origins),
                    said.explanation(), said.fix(), weighing.of(cause, strong)));
        }
        // heaviest evidence first; on a tie the table's order, the cause that makes the others happen first
        findings.sort(Comparator.comparingDouble((Finding f) -> f.weight().score()).reversed());
        if (!findings.isEmpty()) {
            return new Diagnosis(findings, List.of(), read, Optional.empty());
        }
        return new Diagnosis(List.of(), relevant(all, origins), read, Optional.of(reason(all, read)));
    }

    /**
     * Whether a line of this log can show a cause of this side: the host's own NVIDIA driver failing ({@code NVRM …
     * RmInitAdapter failed} on the host) is no guest's Code 43; a line written through a guest's agent (which root in
     * the guest can fake) is no host's vfio, IOMMU or PCIe fault.
     */
    private static boolean sideFits(Signatures.Side side, String input, java.util.Set<String> hostLogs,
                                    java.util.Map<String, io.gpuforge.domain.diagnose.Origin> origins) {
        return switch (side) {
            case GUEST -> !hostLogs.contains(input);
            case HOST -> origins.get(input) != io.gpuforge.domain.diagnose.Origin.GUEST;
            case EITHER -> true;
        };
    }

    /**
     * The logs that are a host's own: fetched from the host by GPUForge (its kernel log, QEMU's log, the functions),
     * or given as text holding lines only a host writes (vfio-pci, the IOMMU, PCIe ports) and nothing of a guest.
     */
    private static java.util.Set<String> hostLogs(List<LogLines.Line> all,
                                                  java.util.Map<String, io.gpuforge.domain.diagnose.Origin> origins) {
        java.util.Set<String> host = new java.util.HashSet<>();
        java.util.Set<String> guest = new java.util.HashSet<>();
        for (LogLines.Line l : all) {
            if (l.note()) {
                continue; // a note about the log ("not the guest's Code 43") says nothing of who wrote it
            }
            if (origins.get(l.input()) == io.gpuforge.domain.diagnose.Origin.HOST && l.source() != LogSource.TASK_LOG
                    || HOST_LINE.matcher(l.plain()).find()) {
                host.add(l.input());
            }
            if (origins.get(l.input()) != io.gpuforge.domain.diagnose.Origin.HOST && GUEST_WORDS.matcher(l.plain()).find()) {
                guest.add(l.input());
            }
        }
        host.removeAll(guest);
        return host;
    }

    private static int indexOf(List<Collected> read, String name) {
        for (int i = 0; i < read.size(); i++) {
            if (read.get(i).name().equals(name) && read.get(i).read()) {
                return i;
            }
        }
        return -1;
    }

    private static List<LogLines.Line> matching(List<LogLines.Line> lines, List<Pattern> patterns) {
        if (patterns.isEmpty()) {
            return List.of();
        }
        List<LogLines.Line> out = new ArrayList<>();
        for (LogLines.Line l : lines) {
            if (l.comment()) {
                continue; // a note about the log is not the log: shown as context, never evidence
            }
            for (Pattern p : patterns) {
                if (Signatures.mayMatch(p, l.plain()) && p.matcher(l.plain()).find()) {
                    out.add(l);
                    break;
                }
            }
        }
        return out;
    }

    /** The strong lines first (at most {@link #MAX_EVIDENCE} in all), then supporting ones, in log order. */
    private static List<Evidence> evidence(Match m, java.util.Map<String, io.gpuforge.domain.diagnose.Origin> origins) {
        List<LogLines.Line> chosen = new ArrayList<>(m.strong().subList(0, Math.min(m.strong().size(), MAX_EVIDENCE)));
        List<LogLines.Line> supporting = new ArrayList<>(m.supporting());
        supporting.sort(Comparator.comparing(l -> !LogLines.written(l)));
        for (LogLines.Line l : supporting.subList(0, Math.min(supporting.size(), MAX_SUPPORTING))) {
            if (chosen.size() >= MAX_EVIDENCE) {
                break;
            }
            chosen.add(l);
        }
        List<Pattern> all = new ArrayList<>(m.cause().strong());
        all.addAll(m.cause().supporting());
        chosen.sort(Comparator.comparing(LogLines.Line::input).thenComparingInt(LogLines.Line::number));
        return chosen.stream().map(l -> new Evidence(l.input(), l.source(), l.number(), shown(l, all),
                origins.getOrDefault(l.input(), io.gpuforge.domain.diagnose.Origin.PASTED), m.strong().contains(l)))
                .toList();
    }

    private static String shown(LogLines.Line l, List<Pattern> patterns) {
        for (Pattern p : patterns) {
            Matcher m = p.matcher(l.plain());
            if (m.find()) {
                int at = l.plain().isEmpty() ? 0 : (int) ((long) m.start() * l.text().length() / l.plain().length());
                return LogLines.shown(l, at);
            }
        }
        return LogLines.shown(l, 0);
    }

    /** Lines that looked relevant, errors first, at most {@link #MAX_RELEVANT}, in log order. */
    private static List<Evidence> relevant(List<LogLines.Line> all,
                                           java.util.Map<String, io.gpuforge.domain.diagnose.Origin> origins) {
        List<LogLines.Line> hits = all.stream().filter(l -> Signatures.RELEVANT.matcher(l.plain()).find()).toList();
        List<LogLines.Line> chosen = new ArrayList<>(hits.stream().filter(l -> Signatures.ERROR.matcher(l.plain()).find())
                .limit(MAX_RELEVANT).toList());
        for (LogLines.Line l : hits) {
            if (chosen.size() >= MAX_RELEVANT) {
                break;
            }
            if (!chosen.contains(l)) {
                chosen.add(l);
            }
        }
        chosen.sort(Comparator.comparing(LogLines.Line::input).thenComparingInt(LogLines.Line::number));
        return chosen.stream().map(l -> new Evidence(l.input(), l.source(), l.number(), LogLines.shown(l, 0),
                origins.getOrDefault(l.input(), io.gpuforge.domain.diagnose.Origin.PASTED), false)).toList();
    }

    private static Message reason(List<LogLines.Line> all, List<Collected> read) {
        if (read.stream().noneMatch(Collected::read)) {
            return Message.of("reason.nothingRead");
        }
        if (all.isEmpty()) {
            return Message.of("reason.empty");
        }
        return Message.of("reason.noMatch", all.size());
    }
}
