package io.gpuforge.diagnose;

import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.diagnose.Origin;
import io.gpuforge.domain.diagnose.Weight;
import io.gpuforge.domain.message.Message;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each cause's strong lines weigh. A line weighs what its surest pattern does ({@link Signatures.Cause#weight});
 * half when a person wrote it (prose about a log, not the log) and half when its log's clock puts it more than
 * {@link #LONG_BEFORE} seconds before the failure (the last error line of that log on that clock: a boot's line
 * against a start's). Lines count once per message and moment: the same message quoted twice in a paste, or copied
 * without its moment from a log that has it, is one line; written at three moments, three.
 */
final class Weighing {

    /** Seconds before the failure after which a line is no longer near it. */
    static final double LONG_BEFORE = 60;

    private static final Pattern START_FAILED = Pattern.compile("start failed|failed to start|unexpectedly closed"
            + "|exited with code|error starting domain|could not start|^task error");

    /** The failure a log's timed line is measured against: when, and whether it is the start's own failure. */
    private record Failure(double at, boolean startFailed) {
    }

    private final Map<String, List<LogLines.Line>> byInput = new HashMap<>();
    private final Set<LogLines.Line> strong;
    private final Map<String, Optional<Failure>> failures = new HashMap<>();
    private final Map<String, Origin> origins;

    /**
     * @param all every line read, in order
     * @param strongLines the lines any cause's strong patterns matched (failure candidates besides error lines)
     * @param origins who wrote each log, by its name
     */
    Weighing(List<LogLines.Line> all, Collection<LogLines.Line> strongLines, Map<String, Origin> origins) {
        for (LogLines.Line l : all) {
            byInput.computeIfAbsent(l.input(), k -> new ArrayList<>()).add(l);
        }
        this.strong = new HashSet<>(strongLines);
        this.origins = origins;
    }

    /** What a cause's strong lines weigh, and that said. */
    Weight of(Signatures.Cause cause, List<LogLines.Line> lines) {
        Map<String, Double> byMoment = new LinkedHashMap<>();
        Set<LogSource> sources = new LinkedHashSet<>();
        OptionalDouble lastGap = OptionalDouble.empty();
        boolean startFailed = false;
        for (LogLines.Line l : lines) {
            int surest = 0;
            String said = null;
            for (Pattern p : cause.strong()) {
                if (cause.weight(p) > surest && Signatures.mayMatch(p, l.plain())) {
                    Matcher m = p.matcher(l.plain());
                    if (m.find()) {
                        surest = cause.weight(p);
                        said = Signatures.message(p, m.group());
                    }
                }
            }
            if (said == null) {
                continue;
            }
            double weight = surest;
            if (origins.getOrDefault(l.input(), Origin.PASTED) == Origin.PASTED && !LogLines.written(l)) {
                weight /= 2; // a person telling what a log said, not the log
            }
            Optional<LogTime.Stamp> at = LogTime.of(l.plain());
            Optional<Failure> failure = at.flatMap(s -> failure(l.input(), s.clock()));
            if (failure.isPresent()) {
                double gap = Math.max(0, failure.get().at() - at.get().seconds());
                if (gap > LONG_BEFORE) {
                    weight /= 2;
                }
                if (lastGap.isEmpty() || gap < lastGap.getAsDouble()) {
                    lastGap = OptionalDouble.of(gap);
                    startFailed = failure.get().startFailed();
                }
            }
            byMoment.merge(said + "@" + at.map(s -> s.clock() + ":" + s.seconds()).orElse(""), weight, Math::max);
            sources.add(l.source());
        }
        // a message without its moment is one quoted again, when the same message is also there with one
        byMoment.keySet().removeIf(k -> k.endsWith("@") && byMoment.keySet().stream()
                .anyMatch(o -> !o.endsWith("@") && o.startsWith(k)));
        double score = byMoment.values().stream().mapToDouble(Double::doubleValue).sum();
        OptionalLong before = lastGap.isPresent() ? OptionalLong.of(Math.round(lastGap.getAsDouble()))
                : OptionalLong.empty();
        return new Weight(score, byMoment.size(), List.copyOf(sources), before,
                said(byMoment.size(), sources, lastGap, startFailed));
    }

    private static Message said(int lines, Set<LogSource> sources, OptionalDouble gap, boolean startFailed) {
        List<Message> names = sources.stream().map(s -> Message.of("source." + s.id())).toList();
        Message from = names.isEmpty() ? Message.of("source.pasted") : names.size() == 1 ? names.get(0)
                : Message.of("sources.and", names.subList(0, names.size() - 1), names.get(names.size() - 1));
        Message counted = Message.of("weight.lines", lines, from);
        if (gap.isEmpty()) {
            return counted;
        }
        if (gap.getAsDouble() < 0.5) {
            return Message.of(startFailed ? "weight.atStart" : "weight.atError", counted, lines);
        }
        return Message.of(startFailed ? "weight.beforeStart" : "weight.beforeError", counted,
                duration(gap.getAsDouble()), lines);
    }

    private static Message duration(double seconds) {
        if (seconds < 120) {
            return Message.of("duration.seconds", Math.round(seconds));
        }
        if (seconds < 2 * 3600) {
            return Message.of("duration.minutes", Math.round(seconds / 60));
        }
        if (seconds < 2 * 86400) {
            return Message.of("duration.hours", Math.round(seconds / 3600));
        }
        return Message.of("duration.days", Math.round(seconds / 86400));
    }

    /**
     * The failure of a log on a clock: its last line on that clock that says something went wrong or names a cause
     * (a comment is neither).
     */
    private Optional<Failure> failure(String input, LogTime.Clock clock) {
        return failures.computeIfAbsent(input + "\u0000" + clock, k -> {
            List<LogLines.Line> lines = byInput.getOrDefault(input, List.of());
            for (int i = lines.size() - 1; i >= 0; i--) {
                LogLines.Line l = lines.get(i);
                if (l.comment() || !strong.contains(l) && !Signatures.ERROR.matcher(l.plain()).find()) {
                    continue;
                }
                Optional<LogTime.Stamp> at = LogTime.of(l.plain());
                if (at.isPresent() && at.get().clock() == clock) {
                    return Optional.of(new Failure(at.get().seconds(), START_FAILED.matcher(l.plain()).find()));
                }
            }
            return Optional.empty();
        });
    }
}
