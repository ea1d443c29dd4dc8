package io.gpuforge.domain;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.tasks.TaskOutcome;

/**
 * Values an operation must never show: a VM password's hash, a template's secret variables (a MUNGE key, a
 * Kubernetes join token). Applied where the operation's lines, statuses and errors leave it (its progress, its
 * task log entry in SQLite and so the exports, the error it ends with), each value becomes {@value #MASK}. The
 * longest value is replaced first, so a secret that holds another is hidden whole. {@link #toString()} says how
 * many values, never which. Immutable.
 */
public final class Redaction {

    public static final String MASK = "********";
    private static final Redaction NONE = new Redaction(List.of());
    private final List<String> values;

    private Redaction(List<String> values) {
        this.values = values;
    }

    public static Redaction none() {
        return NONE;
    }

    /** The non-empty values of {@code secrets}. */
    public static Redaction of(Collection<String> secrets) {
        Set<String> distinct = new LinkedHashSet<>();
        for (String s : secrets) {
            if (s != null && !s.isEmpty()) {
                distinct.add(s);
            }
        }
        return distinct.isEmpty() ? NONE : new Redaction(distinct.stream()
                .sorted(Comparator.comparingInt(String::length).reversed()).collect(Collectors.toUnmodifiableList()));
    }

    /** These values and {@code other}'s. */
    public Redaction and(Redaction other) {
        Set<String> all = new LinkedHashSet<>(values);
        all.addAll(other.values);
        return of(all);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** {@code text} with every value masked; {@code null} stays {@code null}. */
    public String apply(String text) {
        if (text == null || values.isEmpty()) {
            return text;
        }
        String out = text;
        for (String v : values) {
            out = out.replace(v, MASK);
        }
        return out;
    }

    /** Whether {@code text} shows one of the values. */
    public boolean reveals(String text) {
        return text != null && values.stream().anyMatch(text::contains);
    }

    /** A listener that hears {@code l}'s lines masked. */
    public TaskListener wrap(TaskListener l) {
        return values.isEmpty() ? l : line -> l.line(apply(line));
    }

    /** The outcome with its status and log masked. */
    public TaskOutcome apply(TaskOutcome o) {
        if (values.isEmpty()) {
            return o;
        }
        return new TaskOutcome(o.task(), o.ok(), apply(o.status()), o.log().stream().map(this::apply).toList(),
                o.created());
    }

    /**
     * {@code e}, or where its message (or a cause's) shows a value a copy with the message masked, its stack kept,
     * and no cause: the cause's text would show it again in the log.
     */
    public BackendException apply(BackendException e) {
        boolean reveals = false;
        for (Throwable t = e; t != null && !reveals; t = t.getCause()) {
            reveals = reveals(t.getMessage()) || reveals(t.toString());
        }
        if (!reveals) {
            return e;
        }
        BackendException copy = new BackendException(e.kind(), apply(e.getMessage()));
        copy.setStackTrace(e.getStackTrace());
        return copy;
    }

    @Override
    public String toString() {
        return "Redaction[" + values.size() + " value(s)]";
    }
}
