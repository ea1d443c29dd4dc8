package io.gpuforge.app.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.passthrough.Check.Status;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The readiness page asks the user to acknowledge only what nothing else deals with: a warning the plan fixes (the
 * vfio modules at boot, host drivers holding the functions) or a fact the attach checks (the VM's machine type)
 * needs none; a shared group member or an unknown firmware setting still does, and a failure is never waved through.
 */
class PassthroughAcknowledgementTest {

    private static final PassthroughPlan PLAN = new PassthroughPlan("p1", "pve1", List.of(PciAddress.parse("0000:02:00.0")),
            List.of(), List.of(), true, List.of(), List.of());

    private static PassthroughStatus status(PassthroughStatus.Stage stage, Optional<PassthroughPlan> plan) {
        return new PassthroughStatus(stage, plan, Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Test
    void whatThePlanFixesOrTheAttachChecksNeedsNoAcknowledgement() {
        PassthroughStatus s = status(PassthroughStatus.Stage.NEEDS_CHANGES, Optional.of(PLAN));
        Check modules = Check.of("modules.vfio", Status.WARN, "check.modules.missing");
        Check drivers = Check.of("driver.binding", Status.WARN, "check.binding.host");
        Check vm = Check.of("vm.machine", Status.UNKNOWN, "check.vm.none");
        assertThat(s.fixedByPlan(modules)).isTrue();
        assertThat(s.fixedByPlan(drivers)).isTrue();
        assertThat(PassthroughStatus.checkedAtAttach(vm)).isTrue();
        assertThat(List.of(modules, drivers, vm)).noneMatch(s::needsAcknowledgement);
    }

    @Test
    void whatNothingFixesStillNeedsIt() {
        PassthroughStatus s = status(PassthroughStatus.Stage.NEEDS_CHANGES, Optional.of(PLAN));
        assertThat(s.needsAcknowledgement(Check.of("group.isolation", Status.WARN, "check.group.shared"))).isTrue();
        assertThat(s.needsAcknowledgement(Check.of("iommu.firmware", Status.UNKNOWN, "check.firmware.unknown")))
                .isTrue();
        assertThat(s.needsAcknowledgement(Check.of("reset.support", Status.WARN, "check.reset.none"))).isTrue();
        assertThat(s.fixedByPlan(Check.of("modules.vfio", Status.PASS, "check.modules.ok"))).as("nothing to fix")
                .isFalse();
        assertThat(s.needsAcknowledgement(Check.of("modules.vfio", Status.PASS, "check.modules.ok"))).isFalse();
    }

    @Test
    void withoutAPlanNothingIsFixedByIt() {
        PassthroughStatus blocked = status(PassthroughStatus.Stage.BLOCKED, Optional.empty());
        Check modules = Check.of("modules.vfio", Status.WARN, "check.modules.missing");
        assertThat(blocked.fixedByPlan(modules)).isFalse();
        assertThat(blocked.needsAcknowledgement(modules)).isTrue();
        assertThat(PassthroughStatus.checkedAtAttach(Check.of("vm.machine", Status.WARN, "check.vm.i440fx")))
                .as("a VM that was read and found wanting is the user's to weigh").isFalse();
    }
}
