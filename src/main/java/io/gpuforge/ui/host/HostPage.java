package io.gpuforge.ui.host;

import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.ShowsIommu;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.iommu.HostFactsViewModel;
import io.gpuforge.ui.iommu.IommuGroupsView;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import org.kordamp.ikonli.feather.Feather;

/** A host's page: its summary and its IOMMU groups, as tabs. */
public final class HostPage extends TabPane implements Disposable, ShowsIommu {

    public HostPage(Node summary, HostFactsViewModel facts, I18n i18n, String idPrefix) {
        Tab summaryTab = new Tab();
        summaryTab.setId(idPrefix + "-summary");
        summaryTab.textProperty().bind(i18n.text("host.tab.summary"));
        summaryTab.setGraphic(Icons.of(Feather.INFO));
        summaryTab.setContent(summary);
        Tab iommuTab = new Tab();
        iommuTab.setId(idPrefix + "-iommu");
        iommuTab.textProperty().bind(i18n.text("host.tab.iommu"));
        iommuTab.setGraphic(Icons.of(Feather.LAYERS));
        iommuTab.setContent(new IommuGroupsView(facts, i18n));
        // the probe runs when the tab is first opened, not before
        iommuTab.selectedProperty().addListener((o, was, now) -> {
            if (now) {
                facts.loadOnce();
            }
        });
        getTabs().setAll(summaryTab, iommuTab);
        setTabClosingPolicy(TabClosingPolicy.UNAVAILABLE);
        getStyleClass().add("host-page");
    }

    @Override
    public void showIommu() {
        getSelectionModel().select(1);
    }

    @Override
    public void dispose() {
        for (Tab t : getTabs()) {
            t.textProperty().unbind();
            Disposable.of(t.getContent());
        }
    }
}
