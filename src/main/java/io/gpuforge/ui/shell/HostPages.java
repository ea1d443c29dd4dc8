package io.gpuforge.ui.shell;

import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.HostSummary;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.inventory.HostPage;
import io.gpuforge.ui.inventory.HostSummaryView;
import io.gpuforge.ui.inventory.HostSummaryViewModel;
import io.gpuforge.ui.iommu.HostFactsViewModel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import org.kordamp.ikonli.feather.Feather;

/** Builds the pages of hosts (this computer, SSH hosts) and keeps their view-models for refreshing. */
final class HostPages {

    private final UiContext ui;
    private final HostSummaryViewModel localSummary;
    private final HostFactsViewModel localFacts;
    private final Map<Long, HostFactsViewModel> remote = new LinkedHashMap<>();

    private final java.util.function.BiConsumer<Optional<ConnectionInfo>, HostFacts> onFacts;

    /** @param onFacts told each time a host's facts arrive (empty connection = this computer) */
    HostPages(UiContext ui, HostSummaryViewModel localSummary,
              java.util.function.BiConsumer<Optional<ConnectionInfo>, HostFacts> onFacts) {
        this.ui = ui;
        this.localSummary = localSummary;
        this.onFacts = onFacts;
        this.localFacts = new HostFactsViewModel(ui.tasks(), ui.app().hosts()::probeThisComputer,
                ui.i18n().get("task.probeLocalHost"));
        localFacts.factsProperty().addListener((o, a, f) -> {
            if (f != null) {
                onFacts.accept(Optional.empty(), f);
            }
        });
    }

    ContentArea.Page local() {
        return new ContentArea.Page("tab-local", ui.i18n().text("connection.local"), Icons.of(Feather.MONITOR),
                i -> new HostPage(new HostSummaryView(localSummary, ui.i18n(), "connection.local"), localFacts,
                        ui.i18n(), "local"));
    }

    ContentArea.Page ssh(ConnectionInfo c) {
        HostFactsViewModel facts = remote.computeIfAbsent(c.id(), id -> {
            HostFactsViewModel vm = new HostFactsViewModel(ui.tasks(),
                    () -> ui.app().hosts().probe(c, new FxHostKeyPrompt(ui.dialogs(), ui.i18n())),
                    ui.i18n().get("task.probeHost", c.name()));
            vm.factsProperty().addListener((o, a, f) -> {
                if (f != null) {
                    onFacts.accept(Optional.of(c), f);
                }
            });
            return vm;
        });
        ObjectBinding<HostSummary> summary = Bindings.createObjectBinding(() -> {
            HostFacts f = facts.factsProperty().get();
            return f == null ? null : f.summary();
        }, facts.factsProperty());
        return new ContentArea.Page("tab-ssh-" + c.id(), Bindings.createStringBinding(c::name), Icons.of(Feather.SERVER),
                i -> {
                    HostPage page = new HostPage(new HostSummaryView(summary, facts.loadingProperty(), facts.errorProperty(),
                            ui.i18n(), Bindings.createStringBinding(() -> c.name() + " (" + c.username() + "@"
                                    + c.address() + ")")), facts, ui.i18n(), "ssh-" + c.id());
                    if (facts.factsProperty().get() == null && !facts.loadingProperty().get()) {
                        facts.refresh();
                    }
                    return page;
                });
    }

    HostFactsViewModel localFacts() {
        return localFacts;
    }

    /** F5: read again every host that was read. */
    void refresh() {
        localSummary.refresh();
        if (localFacts.factsProperty().get() != null || localFacts.errorProperty().get() != null) {
            localFacts.refresh();
        }
        for (HostFactsViewModel f : remote.values()) {
            if (f.factsProperty().get() != null || f.errorProperty().get() != null) {
                f.refresh();
            }
        }
    }
}
