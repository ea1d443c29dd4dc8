package io.gpuforge.ui.diagnose;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Evidence;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.FixPlan;
import io.gpuforge.ui.common.I18n;
import static io.gpuforge.ui.common.Wrapped.wrapped;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * A diagnosis drawn: the cause with its badge, what its evidence weighs, the evidence lines highlighted with their
 * numbers (a click shows the line in the pasted text), why, the fix and its plan; the other causes folded under "Also seen"; for
 * {@code unknown}, the reason and the lines that looked relevant.
 */
final class DiagnosisView extends VBox {

    private final I18n i18n;
    private final Consumer<Evidence> show;

    DiagnosisView(I18n i18n, Consumer<Evidence> show) {
        super(12);
        this.i18n = i18n;
        this.show = show;
        setId("diagnose-result");
        getStyleClass().add("diagnose-result");
    }

    void render(Diagnosis d) {
        Words words = new Words(i18n.getLocale());
        List<Node> out = new ArrayList<>();
        if (d.known()) {
            Finding first = d.causes().get(0);
            out.add(headline("badge-danger", first.id(), words.text(first.title())));
            out.add(finding(first, words));
            for (Finding f : d.alsoSeen()) {
                TitledPane also = new TitledPane(i18n.get("diagnose.alsoSeen", words.text(f.title()), f.id()),
                        finding(f, words));
                also.setExpanded(false);
                also.setId("diagnose-also-" + f.id());
                also.getStyleClass().add("diagnose-also");
                out.add(also);
            }
        } else {
            out.add(headline("badge-muted", "unknown", i18n.get("diagnose.unknown")));
            out.add(text("diagnose-reason", i18n.get("diagnose.reason", d.reason().map(words::text).orElse(""))));
            if (!d.relevant().isEmpty()) {
                out.add(section("diagnose.relevant"));
                out.add(lines(d.relevant(), "diagnose-relevant"));
            }
        }
        for (Collected c : d.collected()) {
            if (c.bytesSkipped() > 0) {
                out.add(text("diagnose-skipped", i18n.get("diagnose.skipped", c.bytesSkipped() / 1024 / 1024 + 1)));
            }
        }
        getChildren().setAll(out);
    }

    private Node headline(String badgeStyle, String id, String title) {
        Label badge = new Label(id);
        badge.getStyleClass().addAll("badge", badgeStyle);
        badge.setMinWidth(Region.USE_PREF_SIZE);
        Label name = wrapped(new Label(title));
        name.setId("diagnose-cause");
        name.getStyleClass().add("title-3");
        HBox head = new HBox(10, badge, name);
        head.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(name, Priority.ALWAYS);
        return head;
    }

    private VBox finding(Finding f, Words words) {
        VBox box = new VBox(8);
        // what the lines weigh, so the ranking can be checked: "3 lines from the kernel log, the last 2 s before…"
        Label weight = text("diagnose-weight-" + f.id(), words.text(f.weight().said()));
        weight.getStyleClass().add("text-muted");
        box.getChildren().addAll(section("diagnose.evidence"), weight, lines(f.evidence(), "diagnose-evidence-" + f.id()),
                section("diagnose.why"), text("diagnose-why", words.text(f.explanation())),
                section("diagnose.fix"), text("diagnose-fix", words.text(f.fix().text())));
        f.fix().plan().ifPresent(p -> box.getChildren().addAll(section("diagnose.plan"), plan(p, words)));
        return box;
    }

    private VBox lines(List<Evidence> evidence, String id) {
        VBox box = new VBox(2);
        box.setId(id);
        for (Evidence e : evidence) {
            Label number = new Label(Integer.toString(e.line()));
            number.getStyleClass().add("diagnose-line-number");
            number.setMinWidth(44);
            Label text = wrapped(new Label(e.text()));
            text.getStyleClass().add("diagnose-line-text");
            HBox row = new HBox(8, number, text);
            if (e.origin() == io.gpuforge.domain.diagnose.Origin.GUEST) {
                // a line from inside the guest: anyone there can write it, so it is said
                Label origin = new Label(i18n.get("diagnose.origin.guest"));
                origin.getStyleClass().add("diagnose-origin");
                origin.setMinWidth(Label.USE_PREF_SIZE);
                row.getChildren().add(1, origin);
            }
            HBox.setHgrow(text, Priority.ALWAYS);
            row.getStyleClass().add("diagnose-evidence-line");
            row.setOnMouseClicked(ev -> show.accept(e));
            box.getChildren().add(row);
        }
        return box;
    }

    private VBox plan(FixPlan p, Words words) {
        VBox box = new VBox(4);
        box.setId("diagnose-plan");
        p.kernelArguments().forEach(a -> box.getChildren().add(code(i18n.get("diagnose.plan.kernel"), a)));
        p.modprobe().forEach(m -> box.getChildren().add(code(i18n.get("diagnose.plan.modprobe"), m)));
        p.udevRules().forEach(r -> box.getChildren().add(code(i18n.get("diagnose.plan.udev"), r)));
        for (FixPlan.VmEdit v : p.vmChanges()) {
            box.getChildren().add(code(i18n.get("diagnose.plan.vm", v.hypervisor(), words.text(v.description())),
                    v.snippet()));
        }
        p.commands().forEach(c -> box.getChildren().add(code(i18n.get("diagnose.plan.command"), c)));
        return box;
    }

    private Node code(String what, String code) {
        Label caption = new Label(what);
        caption.getStyleClass().add("text-muted");
        Label body = wrapped(new Label(code));
        body.getStyleClass().add("diagnose-code");
        body.setMaxWidth(Double.MAX_VALUE);
        return new VBox(2, caption, body);
    }

    private Label section(String key) {
        Label l = new Label(i18n.get(key));
        l.getStyleClass().add("title-4");
        return l;
    }

    private static Label text(String id, String s) {
        Label l = wrapped(new Label(s));
        l.setId(id);
        return l;
    }

}
