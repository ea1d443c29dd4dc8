package io.gpuforge.ui.passthrough;

import io.gpuforge.app.passthrough.AttachPreflight;
import io.gpuforge.ui.common.I18n;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/**
 * Under the Attach page's list of VMs: exactly what the VM chosen gets (the lines the attach will write), or why it
 * cannot have the card, and the choice to keep the GPU it has and add this one.
 */
final class AttachPlanView {

    private AttachPlanView() {
    }

    static Node of(PassthroughWizardModel m) {
        I18n i18n = m.ui.i18n();
        VBox lines = new VBox(2);
        lines.setId("pt-attach-plan");
        CheckBox add = PassthroughWizardPages.wrapped(new CheckBox());
        add.setId("pt-add-gpu");
        add.selectedProperty().bindBidirectional(m.attaching.addGpu);
        add.managedProperty().bind(add.visibleProperty());
        CheckBox replace = PassthroughWizardPages.wrapped(new CheckBox());
        replace.setId("pt-replace-gpu");
        replace.selectedProperty().bindBidirectional(m.attaching.replaceGpu);
        replace.managedProperty().bind(replace.visibleProperty());
        Runnable render = () -> {
            lines.getChildren().clear();
            WizardAttach.Checked c = m.attaching.checked.get();
            // the VM has a GPU: it is kept, replaced, or the attach is refused (the user's choice stays shown)
            boolean has = c != null && (!c.result().kept().isEmpty() || c.held() != AttachPreflight.Held.REFUSE);
            add.setVisible(has);
            replace.setVisible(has);
            if (m.vm.get() == null) {
                return;
            }
            if (c == null) {
                lines.getChildren().add(muted(i18n.get("passthrough.attach.checking", m.vm.get().ref().id())));
                return;
            }
            AttachPreflight.Result r = c.result();
            if (!r.kept().isEmpty()) {
                add.setText(i18n.get("passthrough.attach.addGpu", String.join(", ", r.kept())));
                replace.setText(i18n.get("passthrough.attach.replaceGpu", String.join(", ", r.kept())));
            }
            if (!r.ok()) {
                r.refusals().forEach(x -> lines.getChildren().add(PassthroughWizardPages.message("wizard-message-error", x)));
                return;
            }
            lines.getChildren().add(new Label(i18n.get("passthrough.attach.gets", c.vm().id(), r.vmName())));
            VBox log = new VBox(2);
            log.getStyleClass().add("output-log");
            r.changes().forEach(x -> log.getChildren().add(PassthroughWizardPages.wrapped(new Label(x))));
            r.kept().forEach(k -> log.getChildren().add(new Label(i18n.get("passthrough.attach.keeps", k))));
            lines.getChildren().add(log);
        };
        m.attaching.checked.addListener((o, a, b) -> render.run());
        m.vm.addListener((o, a, b) -> render.run());
        render.run();
        return new VBox(6, lines, add, replace);
    }

    private static Label muted(String text) {
        Label l = PassthroughWizardPages.wrapped(new Label(text));
        l.getStyleClass().add("text-muted");
        return l;
    }
}
