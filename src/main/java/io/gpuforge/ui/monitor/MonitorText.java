package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.domain.vm.VmState;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.domain.share.ContainerUse;
import java.util.stream.Collectors;
import java.util.List;

/** The monitor's words for domain values, in the UI's language (keys written out so a test finds them all). */
final class MonitorText {

    private MonitorText() {
    }

    /** A time of today as the monitor shows it: 10:42:07, local. */
    static String clock(java.time.Instant t) {
        return io.gpuforge.ui.common.ClockText.of(t);
    }

    /** Where a series comes from: host NVML, nvidia-smi, the guest agent inside a VM, simulated… */
    static String source(I18n i18n, GpuSample s) {
        SourceKind k = s.source();
        switch (k) {
            case NVML:
                return i18n.get("monitor.source.nvml");
            case NVIDIA_SMI:
                return s.gpu().host().startsWith("ssh:") ? i18n.get("monitor.source.smiSsh", s.gpu().host().substring(4))
                        : i18n.get("monitor.source.smi");
            case GUEST_AGENT:
                return i18n.get("monitor.source.guest", s.vm().orElse(s.gpu().host().replaceFirst("^vm:", "")));
            case HWMON:
                return i18n.get("monitor.source.hwmon");
            case DCGM_EXPORTER:
                return i18n.get("monitor.source.dcgm");
            case NVIDIA_GPU_EXPORTER:
                return i18n.get("monitor.source.exporter");
            default:
                return i18n.get("monitor.source.simulated");
        }
    }

    static String availability(I18n i18n, FleetGpu.Availability a) {
        switch (a) {
            case FREE:
                return i18n.get("monitor.fleet.free");
            case IN_USE:
                return i18n.get("monitor.fleet.inUse");
            case ASSIGNED:
                return i18n.get("monitor.fleet.assigned");
            case SHARED:
                return i18n.get("monitor.fleet.shared");
            default:
                return i18n.get("monitor.fleet.unknown");
        }
    }

    /**
     * The containers that share a GPU: "CT 201 media-01 ⚠, CT 202 cuda-02", ⚠ for one given it the old way (raw lxc
     * lines; the node's GPUs tab says so and offers the migration).
     */
    static String containers(List<ContainerUse> cts) {
        return cts.stream().map(c -> "CT " + c.vmid() + (c.name().isEmpty() ? "" : " " + c.name())
                + (c.legacy() ? " ⚠" : "")).collect(Collectors.joining(", "));
    }

    static String vmState(I18n i18n, VmState s) {
        return i18n.get("vm.state." + s.json());
    }

    static String ruleKind(I18n i18n, AlertRule.Kind k) {
        switch (k) {
            case TEMPERATURE:
                return i18n.get("monitor.alert.kind.temperature");
            case POWER_OF_LIMIT:
                return i18n.get("monitor.alert.kind.power");
            case THROTTLING:
                return i18n.get("monitor.alert.kind.throttling");
            default:
                return i18n.get("monitor.alert.kind.lost");
        }
    }

    /** A rule in words: "temperature ≥ 83 °C for 30 s on every GPU". */
    static String rule(I18n i18n, AlertRule r, String gpuName) {
        String what;
        switch (r.kind()) {
            case TEMPERATURE:
                what = i18n.get("monitor.alert.rule.temperature", ChartTicks.format(r.threshold()));
                break;
            case POWER_OF_LIMIT:
                what = i18n.get("monitor.alert.rule.power", ChartTicks.format(r.threshold()));
                break;
            case THROTTLING:
                what = i18n.get("monitor.alert.rule.throttling");
                break;
            default:
                what = i18n.get("monitor.alert.rule.lost");
                break;
        }
        String hold = r.hold().isZero() ? "" : i18n.get("monitor.alert.rule.hold", r.hold().toSeconds());
        String on = r.gpu().isPresent() ? i18n.get("monitor.alert.rule.onGpu", gpuName)
                : i18n.get("monitor.alert.rule.onAll");
        return what + hold + on;
    }

    /** A notification's text. */
    static String alert(I18n i18n, AlertEvent e) {
        String who = e.gpuName().isEmpty() ? e.gpu().toString() : e.gpuName() + " (" + e.gpu().host() + ")";
        String rule = rule(i18n, e.rule(), who);
        return e.state() == AlertEvent.State.FIRED ? i18n.get("monitor.alert.fired", who, rule)
                : i18n.get("monitor.alert.cleared", who, rule);
    }

    /** A GPU as the legend and the lists name it: model, host and address. */
    static String gpu(FleetGpu g) {
        String model = g.model().replaceFirst("^NVIDIA (GeForce )?", "");
        return model + " · " + g.host() + g.address().map(a -> " " + a.replaceFirst("^0000:", "")).orElse("");
    }
}
