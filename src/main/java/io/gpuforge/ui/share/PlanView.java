package io.gpuforge.ui.share;

import io.gpuforge.app.words.Words;
import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.ui.common.DiffView;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Wrapped;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;

/** A host plan as the share windows show it: its notes, the diff of each file, the commands it runs. */
final class PlanView {

    private PlanView() {
    }

    static List<Node> of(PassthroughPlan p, I18n i18n) {
        List<Node> out = new ArrayList<>();
        Words words = new Words(i18n.getLocale());
        for (Message note : p.notes()) {
            Label l = Wrapped.wrapped(new Label(words.text(note)));
            l.getStyleClass().add("wizard-message-info");
            l.setMaxWidth(Double.MAX_VALUE);
            out.add(l);
        }
        if (!p.edits().isEmpty()) {
            out.add(new Label(i18n.get("share.plan.files", p.edits().size(), p.host())));
            out.add(new DiffView(p.edits()));
        }
        if (!p.commands().isEmpty()) {
            out.add(new Label(i18n.get("share.plan.commands")));
            for (String c : p.commands()) {
                Label l = Wrapped.wrapped(new Label("$ " + c));
                l.getStyleClass().addAll("diff-line", "diff-context");
                l.setId("plan-command");
                out.add(l);
            }
        }
        return out;
    }
}
