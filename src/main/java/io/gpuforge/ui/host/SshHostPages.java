package io.gpuforge.ui.host;

import io.gpuforge.app.host.HostService;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.ui.common.FxLoginPrompt;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.NavItem;
import io.gpuforge.ui.common.Page;
import io.gpuforge.ui.common.PageFactory;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.iommu.HostFactsViewModel;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import org.kordamp.ikonli.feather.Feather;

/** SSH hosts: each one's facts read in one probe over SSH, shown as its summary and IOMMU groups. */
public final class SshHostPages implements PageFactory {

    private final UiContext ui;
    private final HostService hosts;
    private final BiConsumer<ConnectionInfo, HostFacts> onFacts;
    private final Map<Long, HostFactsViewModel> models = new ConcurrentHashMap<>();

    /** @param onFacts told each time a host's facts arrive (the tree lists its GPUs) */
    public SshHostPages(UiContext ui, HostService hosts, BiConsumer<ConnectionInfo, HostFacts> onFacts) {
        this.ui = ui;
        this.hosts = hosts;
        this.onFacts = onFacts;
    }

    private HostFactsViewModel model(ConnectionInfo c) {
        return models.computeIfAbsent(c.id(), id -> {
            HostFactsViewModel vm = new HostFactsViewModel(ui.tasks(),
                    () -> hosts.probe(c, new FxLoginPrompt(ui.dialogs(), ui.i18n())),
                    ui.i18n().get("task.probeHost", c.name()));
            vm.factsProperty().addListener((o, a, f) -> {
                if (f != null) {
                    onFacts.accept(c, f);
                }
            });
            return vm;
        });
    }

    @Override
    public Optional<Page> page(NavItem item) {
        Optional<ConnectionInfo> c = item.connection().filter(x -> x.kind() == ConnectionInfo.Kind.SSH);
        return c.map(this::page);
    }

    private Page page(ConnectionInfo c) {
        HostFactsViewModel facts = model(c);
        return new Page("tab-ssh-" + c.id(), Bindings.createStringBinding(c::name), Icons.of(Feather.SERVER), () -> {
            ObjectBinding<HostSummary> summary = Bindings.createObjectBinding(() -> {
                HostFacts f = facts.factsProperty().get();
                return f == null ? null : f.summary();
            }, facts.factsProperty());
            HostPage page = new HostPage(new HostSummaryView(summary, facts.loadingProperty(), facts.errorProperty(),
                    ui.i18n(), Bindings.createStringBinding(() -> c.name() + " (" + c.username() + "@" + c.address() + ")")),
                    facts, ui.i18n(), "ssh-" + c.id());
            facts.loadOnce();
            return page;
        });
    }

    /** A removed connection's model goes with it. */
    public void forget(long connectionId) {
        models.remove(connectionId);
    }

    @Override
    public void refresh() {
        models.values().stream().filter(HostFactsViewModel::started).forEach(HostFactsViewModel::refresh);
    }

    @Override
    public void dispose() {
        models.clear();
    }
}
