package io.gpuforge.ui.shell;

import io.gpuforge.app.LibvirtService;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.HostFacts;
import io.gpuforge.domain.HostSummary;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.Loadable;
import io.gpuforge.ui.inventory.DomainsView;
import io.gpuforge.ui.iommu.IommuGroupsView;
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
    private final Map<Long, Loadable<LibvirtService.Inventory>> libvirtPages = new LinkedHashMap<>();
    private final Map<Long, Loadable<io.gpuforge.app.ProxmoxService.Cluster>> demoPages = new LinkedHashMap<>();
    private final java.util.List<AutoCloseable> watches = new java.util.concurrent.CopyOnWriteArrayList<>();

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

    ContentArea.Page libvirt(ConnectionInfo c) {
        Loadable<LibvirtService.Inventory> inv = libvirtPages.computeIfAbsent(c.id(), id -> {
            Loadable<LibvirtService.Inventory> l = new Loadable<>(ui.tasks(), () -> ui.app().libvirt().inventory(c),
                    ui.i18n().get("task.libvirtInventory", c.name()));
            l.valueProperty().addListener((o, a, v) -> {
                if (v != null) {
                    onFacts.accept(Optional.of(c), v.facts());
                }
            });
            // live updates: libvirt's lifecycle events (on its own thread) refresh the page on the FX thread
            ui.tasks().supply(ui.i18n().get("task.libvirtWatch", c.name()), () -> ui.app().libvirt().watch(c, event ->
                    javafx.application.Platform.runLater(() -> {
                        ui.app().events().info(c.name(), "libvirt: " + event);
                        if (!l.loadingProperty().get()) {
                            l.refresh();
                        }
                    })))
                    .onSuccess(watches::add)
                    .onError(e -> ui.app().events().warn(c.name(), "No live updates: " + e.getMessage()))
                    .start();
            return l;
        });
        ObjectBinding<HostFacts> facts = Bindings.createObjectBinding(
                () -> inv.valueProperty().get() == null ? null : inv.valueProperty().get().facts(), inv.valueProperty());
        ObjectBinding<java.util.List<io.gpuforge.domain.VmInfo>> domains = Bindings.createObjectBinding(
                () -> inv.valueProperty().get() == null ? java.util.List.of() : inv.valueProperty().get().domains(),
                inv.valueProperty());
        javafx.beans.binding.StringBinding header = Bindings.createStringBinding(() -> {
            LibvirtService.Inventory v = inv.valueProperty().get();
            if (inv.errorProperty().get() != null) {
                return ui.i18n().get("iommu.error", inv.errorProperty().get());
            }
            return v == null ? ui.i18n().get("iommu.loading") : ui.i18n().get("libvirt.header", v.hostname(), v.versions(),
                    v.domains().size(), v.iommuSupport().map(b -> b ? "yes" : "no").orElse("?"));
        }, inv.valueProperty(), inv.errorProperty(), ui.i18n().localeProperty());
        return new ContentArea.Page("tab-libvirt-" + c.id(), Bindings.createStringBinding(c::name), Icons.of(Feather.SERVER),
                i -> {
                    javafx.scene.control.TabPane tabs = new javafx.scene.control.TabPane();
                    tabs.getStyleClass().add("host-page");
                    javafx.scene.control.Tab d = new javafx.scene.control.Tab();
                    d.textProperty().bind(ui.i18n().text("host.tab.domains"));
                    d.setContent(new DomainsView(domains, header, ui.i18n()));
                    javafx.scene.control.Tab g = new javafx.scene.control.Tab();
                    g.textProperty().bind(ui.i18n().text("host.tab.iommu"));
                    g.setContent(new IommuGroupsView(facts, inv.loadingProperty(), inv.errorProperty(), ui.i18n()));
                    tabs.getTabs().setAll(d, g);
                    tabs.setTabClosingPolicy(javafx.scene.control.TabPane.TabClosingPolicy.UNAVAILABLE);
                    if (inv.valueProperty().get() == null && !inv.loadingProperty().get()) {
                        inv.refresh();
                    }
                    return tabs;
                });
    }

    /** A Proxmox VE cluster, or the Demo lab (then with a "simulated" banner). */
    ContentArea.Page proxmox(ConnectionInfo c) {
        Loadable<io.gpuforge.app.ProxmoxService.Cluster> inv = demoPages.computeIfAbsent(c.id(), id ->
                new Loadable<>(ui.tasks(), () -> ui.app().proxmox().cluster(c), ui.i18n().get("task.demoInventory", c.name())));
        ObjectBinding<java.util.List<io.gpuforge.domain.VmInfo>> vms = Bindings.createObjectBinding(
                () -> inv.valueProperty().get() == null ? java.util.List.of() : inv.valueProperty().get().vms(),
                inv.valueProperty());
        javafx.beans.binding.StringBinding header = Bindings.createStringBinding(() -> {
            var v = inv.valueProperty().get();
            if (inv.errorProperty().get() != null) {
                return ui.i18n().get("iommu.error", inv.errorProperty().get());
            }
            if (v == null) {
                return ui.i18n().get("iommu.loading");
            }
            StringBuilder gpus = new StringBuilder();
            v.gpus().forEach(g -> gpus.append("\n  ").append(g));
            return ui.i18n().get(c.kind() == ConnectionInfo.Kind.DEMO ? "demo.header" : "pve.header", v.nodes().size(),
                    v.vms().size(), v.gpus().size(), v.version()) + "\n  " + String.join(", ", v.nodes()) + gpus;
        }, inv.valueProperty(), inv.errorProperty(), ui.i18n().localeProperty());
        return new ContentArea.Page("tab-demo-" + c.id(), Bindings.createStringBinding(c::name), Icons.of(Feather.CLOUD),
                i -> {
                    DomainsView view = new DomainsView(vms, header, ui.i18n());
                    if (c.kind() == ConnectionInfo.Kind.DEMO) {
                        javafx.scene.control.Label banner = new javafx.scene.control.Label();
                        banner.setId("demo-banner");
                        banner.textProperty().bind(ui.i18n().text("demo.banner"));
                        banner.getStyleClass().addAll("badge", "badge-warn");
                        banner.setWrapText(true);
                        view.getChildren().add(0, banner);
                    }
                    if (inv.valueProperty().get() == null && !inv.loadingProperty().get()) {
                        inv.refresh();
                    }
                    return view;
                });
    }

    HostFactsViewModel localFacts() {
        return localFacts;
    }

    /** Stops the libvirt event watches (the window is closing). */
    void dispose() {
        for (AutoCloseable w : watches) {
            try {
                w.close();
            } catch (Exception e) {
                // closing anyway
            }
        }
        watches.clear();
    }

    /** F5: read again every host that was read. */
    void refresh() {
        localSummary.refresh();
        if (localFacts.factsProperty().get() != null || localFacts.errorProperty().get() != null) {
            localFacts.refresh();
        }
        for (Loadable<LibvirtService.Inventory> l : libvirtPages.values()) {
            if (l.valueProperty().get() != null || l.errorProperty().get() != null) {
                l.refresh();
            }
        }
        for (HostFactsViewModel f : remote.values()) {
            if (f.factsProperty().get() != null || f.errorProperty().get() != null) {
                f.refresh();
            }
        }
    }
}
