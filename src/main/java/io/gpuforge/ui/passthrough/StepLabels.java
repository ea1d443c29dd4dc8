package io.gpuforge.ui.passthrough;

import io.gpuforge.ui.common.I18n;
import java.util.Locale;
import java.util.Set;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/** The passthrough wizard's list of steps on the left: the current one, those done, and those not needed. FX thread. */
final class StepLabels {

    private StepLabels() {
    }

    static void render(VBox steps, PassthroughWizardModel.Step current, Set<PassthroughWizardModel.Step> skipped, I18n i18n) {
        steps.getChildren().clear();
        for (PassthroughWizardModel.Step s : PassthroughWizardModel.Step.values()) {
            Label l = new Label(i18n.get(PassthroughWizardModel.stepKey(s)));
            l.getStyleClass().add("wizard-step");
            l.setId("pt-step-" + s.name().toLowerCase(Locale.ROOT));
            l.setMaxWidth(Double.MAX_VALUE);
            if (s == current) {
                l.getStyleClass().add("current");
            } else if (skipped.contains(s)) {
                l.getStyleClass().add("skipped");
                l.setText(i18n.get("passthrough.step.skipped", l.getText()));
            } else if (s.ordinal() < current.ordinal()) {
                l.getStyleClass().add("done");
            }
            steps.getChildren().add(l);
        }
    }
}
