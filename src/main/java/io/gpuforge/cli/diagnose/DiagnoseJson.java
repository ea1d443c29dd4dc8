package io.gpuforge.cli.diagnose;

import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Evidence;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.diagnose.Weight;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A diagnosis as JSON: {@code {"cause", "causes": [{"id", "title", "weight": {"score", "lines", "sources",
 * "seconds_before_failure"?, "text"}, "evidence": [{"source", "input", "line", "text"}], "explanation", "fix":
 * {"text", "plan"?}}], "relevant", "reason"?, "collected": [...]}}; causes heaviest first.
 */
final class DiagnoseJson {

    private DiagnoseJson() {
    }

    static Map<String, Object> of(Diagnosis d) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("cause", d.cause());
        root.put("causes", d.causes().stream().map(DiagnoseJson::finding).toList());
        root.put("relevant", d.relevant().stream().map(DiagnoseJson::evidence).toList());
        d.reason().ifPresent(r -> root.put("reason", EnglishWords.of(r)));
        root.put("collected", d.collected().stream().map(DiagnoseJson::collected).toList());
        return root;
    }

    private static Map<String, Object> finding(Finding f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id());
        m.put("title", EnglishWords.of(f.title()));
        m.put("weight", weight(f.weight()));
        m.put("evidence", f.evidence().stream().map(DiagnoseJson::evidence).toList());
        m.put("explanation", EnglishWords.of(f.explanation()));
        Map<String, Object> fix = new LinkedHashMap<>();
        fix.put("text", EnglishWords.of(f.fix().text()));
        f.fix().plan().ifPresent(p -> fix.put("plan", plan(p)));
        m.put("fix", fix);
        return m;
    }

    private static Map<String, Object> weight(Weight w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("score", Math.round(w.score() * 10) / 10.0);
        m.put("lines", w.lines());
        m.put("sources", w.sources().stream().map(LogSource::id).toList());
        w.secondsBeforeFailure().ifPresent(s -> m.put("seconds_before_failure", s));
        m.put("text", EnglishWords.of(w.said()));
        return m;
    }

    private static Map<String, Object> evidence(Evidence e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", e.source().id());
        m.put("origin", e.origin().id());
        m.put("strong", e.strong());
        m.put("input", e.input());
        m.put("line", e.line());
        m.put("text", e.text());
        return m;
    }

    private static Map<String, Object> plan(FixPlan p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kernel_arguments", p.kernelArguments());
        m.put("modprobe", p.modprobe());
        m.put("udev_rules", p.udevRules());
        m.put("vm_changes", p.vmChanges().stream().map(v -> {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("hypervisor", v.hypervisor());
            c.put("description", EnglishWords.of(v.description()));
            c.put("snippet", v.snippet());
            return c;
        }).toList());
        m.put("commands", p.commands());
        return m;
    }

    private static Map<String, Object> collected(Collected c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        m.put("source", c.source().id());
        m.put("bytes_read", c.bytesRead());
        m.put("bytes_skipped", c.bytesSkipped());
        m.put("lines", c.lines());
        if (c.millis() > 0) {
            m.put("millis", c.millis());
        }
        c.problem().ifPresent(p -> m.put("problem", EnglishWords.of(p)));
        return m;
    }

}
