package io.gpuforge.ui.host;

import io.gpuforge.app.host.HostService;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.PageFactory;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.iommu.HostFactsViewModel;
import java.util.Optional;
import java.util.function.Consumer;
import org.kordamp.ikonli.feather.Feather;

/** "This computer": its summary and IOMMU groups, for the computer itself, its node and its GPUs in the tree. */
public final class LocalHostPages implements PageFactory {

    private final UiContext ui;
    private final HostService hosts;
    private final HostSummaryViewModel summary;
    private final HostFactsViewModel facts;

    /** @param onFacts told each time this computer's facts arrive (the tree lists its GPUs) */
    public LocalHostPages(UiContext ui, HostService hosts, Consumer<HostSummary> onSummary,
                          Consumer<HostFacts> onFacts) {
        this.ui = ui;
        this.hosts = hosts;
        I18n i18n = ui.i18n();
        summary = new HostSummaryViewModel(ui.tasks(), hosts::thisComputer, i18n.get("task.readLocalHost"));
        facts = new HostFactsViewModel(ui.tasks(), hosts::probeThisComputer, i18n.get("task.probeLocalHost"));
        summary.summaryProperty().addListener((o, a, s) -> {
            if (s != null) {
                onSummary.accept(s);
            }
        });
        facts.factsProperty().addListener((o, a, f) -> {
            if (f != null) {
                onFacts.accept(f);
            }
        });
    }

    /** Reads this computer's summary (the window does it once at start). */
    public void start() {
        summary.refresh();
    }

    public HostSummaryViewModel summary() {
        return summary;
    }

    @Override
    public Optional<Page> page(NavItem item) {
        if (!item.id().startsWith("local")) {
            return Optional.empty();
        }
        return Optional.of(new Page("tab-local", ui.i18n().text("connection.local"), Icons.of(Feather.MONITOR),
                () -> new HostPage(new HostSummaryView(summary, ui.i18n(), "connection.local"), facts, ui.i18n(), "local")));
    }

    @Override
    public void refresh() {
        summary.refresh();
        if (facts.started()) {
            facts.refresh();
        }
    }

    @Override
    public void dispose() {
        // nothing held open
    }
}
