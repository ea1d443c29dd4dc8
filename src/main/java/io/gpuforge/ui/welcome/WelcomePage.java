package io.gpuforge.ui.welcome;

import atlantafx.base.theme.Styles;
import io.gpuforge.app.FirstRun;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import java.util.List;
import java.util.Objects;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.image.Image;
import javafx.scene.image.ImageView;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.feather.Feather;

/**
 * The first-run page: what GPUForge is for, and the six ways to begin (this computer, a Proxmox cluster, a libvirt
 * host, an SSH host, a pasted IOMMU listing, the simulated Demo lab). Shown at start while {@link FirstRun} says so,
 * and from Help → Welcome. Every choice is a button: reachable with Tab, activated with Space or a click.
 */
public final class WelcomePage extends ScrollPane implements Disposable {

    /** The page's tab key: the window shows at most one welcome tab. */
    public static final String KEY = "welcome";
    static final String CSS = "/io/gpuforge/ui/welcome/welcome.css";

    /** One choice on the page: its id (for tests: {@code welcome-<id>}), its name and text keys, icon and action. */
    record Choice(String id, String nameKey, String textKey, Ikon icon, Runnable action) {
    }

    private static final double TEXT_WIDTH = 330;
    private static final int ICON_SIZE = 28;

    private final ViewScope scope = new ViewScope();

    /** The page as a tab of the window's content area. */
    public static Page page(UiContext ui, FirstRun firstRun, WelcomeActions actions) {
        return new Page(KEY, ui.i18n().text("welcome.tab"), Icons.of(Feather.HOME),
                () -> new WelcomePage(ui.i18n(), firstRun, actions));
    }

    public WelcomePage(I18n i18n, FirstRun firstRun, WelcomeActions actions) {
        Objects.requireNonNull(firstRun);
        Objects.requireNonNull(actions);
        setId("welcome-page");
        getStyleClass().add("welcome-page");
        getStylesheets().add(Objects.requireNonNull(WelcomePage.class.getResource(CSS), CSS).toExternalForm());
        // Chinese has no bold in its fonts here: a title in one weight, not bold Latin beside regular CJK
        scope.listen(i18n.localeProperty(), (o, a, l) -> cjk(l));
        cjk(i18n.getLocale());
        setFitToWidth(true);

        Label title = label(i18n, "welcome.title", Styles.TITLE_1);
        Label lead = label(i18n, "welcome.lead", "welcome-lead");
        lead.setWrapText(true);
        lead.setPrefWidth(TEXT_WIDTH * 2);
        lead.setMinHeight(Region.USE_PREF_SIZE);
        VBox heading = new VBox(6, title, lead);
        HBox.setHgrow(heading, Priority.ALWAYS);
        HBox header = new HBox(18, logo(), heading);
        header.setAlignment(Pos.CENTER_LEFT);

        // the Demo lab first: one click away, in view at the window's default size beside the tree and tasks
        List<Choice> choices = List.of(
                new Choice("demoLab", "welcome.choice.demoLab", "welcome.choice.demoLab.text",
                        Feather.PLAY_CIRCLE, actions.demoLab()),
                new Choice("thisComputer", "welcome.choice.thisComputer", "welcome.choice.thisComputer.text",
                        Feather.MONITOR, actions.thisComputer()),
                new Choice("addProxmox", "welcome.choice.addProxmox", "welcome.choice.addProxmox.text",
                        Feather.SERVER, actions.addProxmox()),
                new Choice("addLibvirt", "welcome.choice.addLibvirt", "welcome.choice.addLibvirt.text",
                        Feather.BOX, actions.addLibvirt()),
                new Choice("addSsh", "welcome.choice.addSsh", "welcome.choice.addSsh.text",
                        Feather.TERMINAL, actions.addSsh()),
                new Choice("analyseListing", "welcome.choice.analyseListing", "welcome.choice.analyseListing.text",
                        Feather.CLIPBOARD, actions.analyseListing()));
        GridPane grid = new GridPane();
        grid.getStyleClass().add("welcome-choices");
        grid.setHgap(14);
        grid.setVgap(14);
        for (int i = 0; i < choices.size(); i++) {
            Button b = card(i18n, choices.get(i));
            GridPane.setHgrow(b, Priority.ALWAYS);
            grid.add(b, i % 2, i / 2);
        }

        CheckBox atStart = new CheckBox();
        atStart.setId("welcome-atStart");
        scope.bind(atStart.textProperty(), i18n.text("welcome.atStart"));
        atStart.setSelected(!firstRun.dismissed());
        atStart.selectedProperty().addListener((o, was, now) -> firstRun.setDismissed(!now));
        Label again = label(i18n, "welcome.again", Styles.TEXT_MUTED);
        HBox footer = new HBox(16, atStart, again);
        footer.setAlignment(Pos.CENTER_LEFT);

        VBox body = new VBox(22, header, grid, footer);
        body.getStyleClass().add("welcome-body");
        body.setPadding(new Insets(28, 32, 28, 32));
        body.setMaxWidth(960);
        setContent(body);
    }

    private void cjk(java.util.Locale l) {
        boolean chinese = l != null && "zh".equals(l.getLanguage());
        getStyleClass().remove("cjk");
        if (chinese) {
            getStyleClass().add("cjk");
        }
    }

    private Node logo() {
        Image img = new Image(Objects.requireNonNull(WelcomePage.class.getResource("/icons/gpuforge-64.png"),
                "the application icon").toExternalForm());
        ImageView view = new ImageView(img);
        view.setFitWidth(64);
        view.setFitHeight(64);
        return view;
    }

    private Button card(I18n i18n, Choice c) {
        Label name = label(i18n, c.nameKey(), "welcome-choice-title");
        Label text = label(i18n, c.textKey(), Styles.TEXT_MUTED);
        text.setWrapText(true);
        // a wrapping label in a button's graphic needs a width to compute its height from
        text.setPrefWidth(TEXT_WIDTH);
        text.setMinHeight(Region.USE_PREF_SIZE);
        Node heading = name;
        if ("demoLab".equals(c.id())) {
            // the Demo lab is labelled as what it is: a simulation
            Label simulated = label(i18n, "welcome.simulated", "badge", "badge-warn");
            simulated.setId("welcome-simulated");
            HBox line = new HBox(8, name, simulated);
            line.setAlignment(Pos.CENTER_LEFT);
            heading = line;
        }
        VBox words = new VBox(4, heading, text);
        HBox.setHgrow(words, Priority.ALWAYS);
        HBox content = new CardContent(Icons.of(c.icon(), ICON_SIZE), words);
        content.setAlignment(Pos.CENTER_LEFT);
        Button b = new Button();
        b.setId("welcome-" + c.id());
        b.getStyleClass().add("welcome-choice");
        b.setGraphic(content);
        b.setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        b.setMaxWidth(Double.MAX_VALUE);
        b.setMaxHeight(Double.MAX_VALUE);
        b.setMinHeight(Region.USE_PREF_SIZE);
        b.setAlignment(Pos.CENTER_LEFT);
        scope.bind(b.accessibleTextProperty(), i18n.text(c.nameKey()));
        b.setOnAction(e -> c.action().run());
        return b;
    }

    private Label label(I18n i18n, String key, String... styles) {
        Label l = new Label();
        scope.bind(l.textProperty(), i18n.text(key));
        l.getStyleClass().addAll(styles);
        return l;
    }

    /**
     * A card's icon and words. A button asks its graphic's height for its own width less its padding, which is
     * negative while no width is known; an HBox would then wrap the text one word per line. Unknown stays unknown.
     */
    private static final class CardContent extends HBox {

        CardContent(Node... children) {
            super(14, children);
        }

        @Override
        protected double computeMinHeight(double width) {
            return super.computeMinHeight(width < 0 ? -1 : width);
        }

        @Override
        protected double computePrefHeight(double width) {
            return super.computePrefHeight(width < 0 ? -1 : width);
        }
    }

    @Override
    public void dispose() {
        scope.dispose();
    }
}
