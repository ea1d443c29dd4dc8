package io.gpuforge.ui.share;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.WizardFrame;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import javafx.beans.binding.Bindings;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The container wizard, in the passthrough wizard's look and words: Node → Template → Resources and network → GPU →
 * Host plan → Driver → Summary → Create, the steps on the left. The host plan is shown (a diff) and applied only when
 * the chosen GPU needs it; the driver step only for an NVIDIA GPU. Nothing is changed before the summary, which shows
 * the exact API call; the create's task lines are shown as they come. Open it with {@link #open}.
 */
public final class ContainerWizard {

    private final UiContext ui;
    private final I18n i18n;
    private final ContainerWizardModel m;
    private final ContainerWizardPages pages;
    private final Stage stage = new Stage();
    private final WizardFrame frame;
    private final StackPane content;
    private final Button next;
    private final Set<ContainerWizardModel.Step> skipped = EnumSet.noneOf(ContainerWizardModel.Step.class);
    private final Runnable afterCreate;

    private ContainerWizard(UiContext ui, ShareServices services, Window owner, ConnectionInfo c,
                            Runnable afterCreate) {
        this.ui = ui;
        this.i18n = ui.i18n();
        this.m = new ContainerWizardModel(ui, services, c);
        this.pages = new ContainerWizardPages(m);
        this.frame = new WizardFrame("ct-wizard", "share", i18n, m.busy, m.error);
        this.content = frame.content();
        this.next = frame.next();
        this.afterCreate = afterCreate;
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(i18n.get("share.wizard.title", c.name()));
        stage.setScene(scene());
        stage.setOnHidden(e -> m.cancelled.set(true));
    }

    /**
     * Opens the wizard on a Proxmox connection; at {@code node}'s templates when one is given, with {@code gpu} chosen
     * when it can be; {@code afterCreate} runs on the FX thread once the container was made.
     */
    public static Stage open(UiContext ui, ShareServices services, Window owner, ConnectionInfo c,
                             Optional<String> node, Optional<PciAddress> gpu, Runnable afterCreate) {
        ContainerWizard w = new ContainerWizard(ui, services, owner, c, afterCreate);
        w.m.preselectedGpu = gpu;
        node.ifPresent(w.m.node::set);
        w.stage.show();
        w.show(ContainerWizardModel.Step.NODE);
        w.m.loadNodes(() -> {
            if (node.isPresent() && w.m.nodes.contains(node.get())) {
                w.m.loadNodeChoices(() -> w.show(ContainerWizardModel.Step.TEMPLATE));
            } else {
                w.show(ContainerWizardModel.Step.NODE);
            }
        });
        return w.stage;
    }

    private Scene scene() {
        Button back = frame.back();
        back.setOnAction(e -> back());
        next.setOnAction(e -> next());
        next.disableProperty().bind(Bindings.createBooleanBinding(() -> m.busy.get() || !canGoOn(), m.busy, m.step,
                m.node, m.template, m.hostname, m.storage, m.bridge, m.gpu, m.hostPlan, m.hostApplied, m.created));
        back.disableProperty().bind(m.busy.or(Bindings.createBooleanBinding(() -> m.step.get()
                == ContainerWizardModel.Step.NODE || m.step.get() == ContainerWizardModel.Step.CREATE, m.step)));
        frame.cancel().setOnAction(e -> stage.close());
        BorderPane root = frame.root();
        root.setId("container-wizard");
        Scene scene = new Scene(root, 1000, 680);
        ui.theme().style(scene);
        return scene;
    }

    private boolean canGoOn() {
        return switch (m.step.get()) {
            case NODE -> m.node.get() != null;
            case TEMPLATE -> m.template.get() != null && !m.hostname.get().isBlank();
            case RESOURCES -> m.invalid().isEmpty();
            case GPU -> !m.gpuBlocked();
            case HOST_PLAN -> m.hostPlan.get() != null;
            case CREATE -> m.created.get() != null;
            default -> true;
        };
    }

    private void next() {
        switch (m.step.get()) {
            case NODE -> m.loadNodeChoices(() -> show(ContainerWizardModel.Step.TEMPLATE));
            case TEMPLATE -> show(ContainerWizardModel.Step.RESOURCES);
            case RESOURCES -> m.loadGpus(() -> show(ContainerWizardModel.Step.GPU));
            case GPU -> afterGpu();
            case HOST_PLAN -> {
                if (m.hostApplied.get() == null) {
                    m.applyHostPlan(() -> {
                        show(ContainerWizardModel.Step.HOST_PLAN);
                        if (!m.needsHostPlan()) {
                            afterHostPlan();
                        }
                    });
                } else {
                    afterHostPlan();
                }
            }
            case DRIVER -> show(ContainerWizardModel.Step.SUMMARY);
            case SUMMARY -> {
                show(ContainerWizardModel.Step.CREATE);
                m.create(() -> {
                    refreshButtons();
                    if (m.created.get().ok()) {
                        afterCreate.run();
                    }
                });
            }
            default -> stage.close();
        }
    }

    private void afterGpu() {
        skipped.remove(ContainerWizardModel.Step.HOST_PLAN);
        if (m.needsHostPlan()) {
            m.hostApplied.set(null);
            m.loadHostPlan(() -> show(ContainerWizardModel.Step.HOST_PLAN));
        } else {
            skipped.add(ContainerWizardModel.Step.HOST_PLAN);
            afterHostPlan();
        }
    }

    private void afterHostPlan() {
        boolean nvidia = m.gpu.get() != null && m.gpu.get().hostDriver().filter("nvidia"::equals).isPresent();
        if (nvidia) {
            skipped.remove(ContainerWizardModel.Step.DRIVER);
            show(ContainerWizardModel.Step.DRIVER);
        } else {
            skipped.add(ContainerWizardModel.Step.DRIVER);
            show(ContainerWizardModel.Step.SUMMARY);
        }
    }

    private void back() {
        ContainerWizardModel.Step at = m.step.get();
        ContainerWizardModel.Step to = at;
        do {
            to = ContainerWizardModel.Step.values()[Math.max(0, to.ordinal() - 1)];
        } while (skipped.contains(to) && to.ordinal() > 0);
        show(to);
    }

    private void show(ContainerWizardModel.Step s) {
        m.step.set(s);
        m.error.set("");
        content.getChildren().setAll(page(s));
        frame.show(s, skipped);
        refreshButtons();
    }

    private Node page(ContainerWizardModel.Step s) {
        return switch (s) {
            case NODE -> pages.node();
            case TEMPLATE -> pages.template();
            case RESOURCES -> pages.resources();
            case GPU -> pages.gpu(() -> ui.links().rollback().ifPresent(r -> r.open(stage, m.host())));
            case HOST_PLAN -> pages.hostPlan();
            case DRIVER -> pages.driver();
            case SUMMARY -> pages.summary();
            case CREATE -> pages.create();
        };
    }

    private void refreshButtons() {
        ContainerWizardModel.Step s = m.step.get();
        next.setText(i18n.get(s == ContainerWizardModel.Step.HOST_PLAN && m.hostApplied.get() == null
                ? "passthrough.next.apply" : s == ContainerWizardModel.Step.SUMMARY ? "share.wizard.next.create"
                : s == ContainerWizardModel.Step.CREATE ? "wizard.finish" : "wizard.next"));
    }
}
