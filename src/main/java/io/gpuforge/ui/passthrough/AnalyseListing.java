package io.gpuforge.ui.passthrough;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.app.host.HostReading;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.pci.ListingReport;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.PastedText;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.iommu.IommuGroupsViewModel;
import io.gpuforge.ui.iommu.IommuTable;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * "Analyse a listing": paste (or open) the IOMMU listing someone posted on a forum, or {@code lspci -nnk}, and see every
 * GPU's verdict with the checks behind it and their fixes. No host is needed; nothing is changed anywhere. Open it
 * with {@link #open}.
 */
public final class AnalyseListing {

    private final UiContext ui;
    private final PassthroughServices services;
    private final I18n i18n;
    private final Stage stage = new Stage();
    private final PastedText input;
    private final TextArea text;
    private final VBox result = new VBox(12);

    private AnalyseListing(UiContext ui, PassthroughServices services, Window owner) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.input = new PastedText(i18n, "listing", new PastedText.Keys("listing.prompt",
                "listing.open", "listing.analyse"), Feather.SEARCH, () -> stage, this::read,
                this::analyse);
        this.text = input.text();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(i18n.get("listing.title"));
        stage.setScene(scene());
    }

    /** Opens the window (File → Analyse a listing…); returns it, shown. */
    public static Stage open(UiContext ui, PassthroughServices services, Window owner) {
        AnalyseListing a = new AnalyseListing(ui, services, owner);
        a.stage.show();
        return a.stage;
    }

    private Scene scene() {
        Label intro = PassthroughWizardPages.wrapped(new Label(i18n.get("listing.intro")));
        text.setPrefRowCount(9);
        text.setMinHeight(170);
        text.getStyleClass().add("output-log");
        HBox buttons = input.buttons();
        result.setId("listing-result");
        result.setPadding(new Insets(4));
        ScrollPane scroll = new ScrollPane(result);
        scroll.setFitToWidth(true);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        VBox root = new VBox(10, intro, text, buttons, scroll);
        root.setPadding(new Insets(16));
        root.setId("analyse-listing");
        root.getStylesheets().add(Objects.requireNonNull(AnalyseListing.class.getResource(ReadinessView.CSS))
                .toExternalForm());
        Scene scene = new Scene(root, 980, 760);
        ui.theme().style(scene);
        return scene;
    }

    private void read(File f) {
        input.busy(true);
        ui.tasks().supply(i18n.get("listing.task.read"), () -> BoundedStreams.readString(f.toPath(), 16 << 20))
                .onSuccess(text::setText)
                .onError(e -> result.getChildren().setAll(PassthroughWizardPages.message("wizard-message-error",
                        i18n.get("listing.openFailed", f, e.getMessage()))))
                .andFinally(() -> input.busy(false)).start();
    }

    /** Reads the text as a listing and shows what it says; also for tests. */
    void analyse() {
        byte[] bytes = text.getText().getBytes(StandardCharsets.UTF_8);
        input.busy(true);
        ui.tasks().supply(i18n.get("listing.task.analyse"), () -> {
            HostReading r = services.hosts().read(new HostTarget.Listing("pasted", bytes), (h, k, f) -> false);
            return new Analysis(r, services.passthrough().verdicts(r, PassthroughOverrides.none()));
        }).onSuccess(this::render)
                .onError(e -> result.getChildren().setAll(PassthroughWizardPages.message("wizard-message-error",
                        i18n.get("listing.failed", e.getMessage()))))
                .andFinally(() -> input.busy(false)).start();
    }

    private record Analysis(HostReading reading, List<GpuVerdict> verdicts) {
    }

    private void render(Analysis a) {
        result.getChildren().clear();
        Label summary = PassthroughWizardPages.wrapped(new Label(i18n.get("listing.summary", a.reading().facts().pci().groups().size(),
                a.reading().facts().pci().devices().size(), a.verdicts().size())));
        summary.setId("listing-summary");
        summary.getStyleClass().add("title-4");
        result.getChildren().add(summary);
        a.reading().listing().filter(ListingReport::partial).ifPresent(l -> result.getChildren().add(PassthroughWizardPages.message(
                "wizard-message-info", i18n.get("listing.partial", l.gaps().stream()
                        .map(g -> i18n.get("listing.gap", g.line(), g.reason())).collect(Collectors.joining("; "))))));
        a.reading().listing().filter(l -> !l.skipped().isEmpty()).ifPresent(l -> result.getChildren().add(
                PassthroughWizardPages.wrapped(new Label(i18n.get("listing.skipped", l.skipped().size())))));
        if (a.verdicts().isEmpty()) {
            result.getChildren().add(PassthroughWizardPages.message("wizard-message-info", i18n.get("listing.noGpu")));
        }
        for (GpuVerdict v : a.verdicts()) {
            Label badge = new Label(i18n.get(IommuGroupsViewModel.verdictKey(v.verdict().kind())));
            badge.getStyleClass().addAll("badge", IommuTable.styleOf(v.verdict().kind()), "verdict-badge");
            badge.setMinWidth(Region.USE_PREF_SIZE);
            Label name = new Label(v.address() + "  " + v.name().orElse(""));
            name.getStyleClass().add("title-4");
            HBox head = new HBox(10, badge, name);
            head.setAlignment(Pos.CENTER_LEFT);
            ReadinessView checks = new ReadinessView(v.report(), i18n);
            checks.setId(checksId(v));
            VBox gpu = new VBox(6, head, checks);
            gpu.getStyleClass().add("listing-gpu");
            result.getChildren().add(gpu);
        }
    }

    /** The id of a GPU's checks (a CSS id: no colons or dots). */
    static String checksId(GpuVerdict v) {
        return "listing-checks-" + v.address().toString().replace(':', '-').replace('.', '-');
    }
}
