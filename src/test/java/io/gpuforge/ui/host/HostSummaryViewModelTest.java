package io.gpuforge.ui.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.ui.common.BackgroundTasks;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The view-model without a toolkit: background work runs on the test thread. */
class HostSummaryViewModelTest {

    private static HostSummary host(int groups) {
        return new HostSummary("h", Optional.of("Debian"), Optional.of("6.1"), "x86_64", Optional.empty(),
                Optional.empty(), 8, Optional.empty(), groups > 0 ? IommuState.ENABLED : IommuState.DISABLED, groups);
    }

    @Test
    void refreshPublishesTheFactsAndClearsAnEarlierError() {
        AtomicInteger calls = new AtomicInteger();
        HostSummaryViewModel vm = new HostSummaryViewModel(BackgroundTasks.sameThread(), () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("permission denied: /proc/cpuinfo");
            }
            return host(12);
        }, "read");
        vm.refresh();
        assertThat(vm.errorProperty().get()).isEqualTo("permission denied: /proc/cpuinfo");
        assertThat(vm.summaryProperty().get()).isNull();
        assertThat(vm.loadingProperty().get()).isFalse();
        vm.refresh();
        assertThat(vm.errorProperty().get()).isNull();
        assertThat(vm.summaryProperty().get().iommuGroups()).isEqualTo(12);
    }

    @Test
    void loadingIsTrueWhileTheReadRuns() {
        HostSummaryViewModel[] vm = new HostSummaryViewModel[1];
        boolean[] seenLoading = new boolean[1];
        vm[0] = new HostSummaryViewModel(BackgroundTasks.sameThread(), () -> {
            seenLoading[0] = vm[0].loadingProperty().get();
            return host(0);
        }, "read");
        vm[0].refresh();
        assertThat(seenLoading[0]).isTrue();
        assertThat(vm[0].loadingProperty().get()).isFalse();
    }
}
