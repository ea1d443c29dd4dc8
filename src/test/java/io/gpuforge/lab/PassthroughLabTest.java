package io.gpuforge.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Scenarios 7, 5, 8 and 6 on the busybox guest with GRUB-style boot configuration (the lab's stand-ins for
 * update-grub, update-initramfs and udev's coldplug, see src/test/lab/README.md: the real Debian tools are not the
 * point here, and they cost minutes per run under emulation), in this order on one machine: each leaves the state
 * the next starts from, and the boots are shared where the state allows. Every change goes through
 * {@code gpuforge} over SSH; the guest's kernel, its files and the grub.cfg its update-grub wrote are the judge.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PassthroughLabTest {

    @RegisterExtension
    static final LabExtension LAB = LabExtension.busybox();
    private static PassthroughFlow flow;

    private static LabHost host() {
        return new LabHost(LAB.machine(), LabHost.Boot.GRUB);
    }

    @Test
    @Order(1)
    void faultsDuringApplyLeaveTheHostUntouchedOrFullyAppliedAndRollbackFinishesTheJob() throws Exception {
        PassthroughFlow f = new PassthroughFlow(LAB, LabHost.Boot.GRUB);
        JsonNode plan = f.planAndRemember(Topology.GPU);
        assertThat(plan.get("commands").toString()).contains("update-grub").contains("update-initramfs");
        Faults faults = new Faults(LAB.machine());
        List<String> problems = new ArrayList<>();
        for (Faults.Fault fault : List.of(
                Faults.cut("SSH cut at the journal's first write", "/var/lib/gpuforge/journal.json", "base64 -d"),
                Faults.cut("SSH cut while the new files are staged (/etc/default/grub staged)", "'/etc/modules'",
                        "base64 -d"),
                Faults.cut("SSH cut while the commit runs on the host (update-grub, update-initramfs)",
                        Faults.FOLLOWING_THE_COMMIT),
                Faults.updateInitramfsFails(),
                Faults.cutAndUpdateInitramfsFails("SSH cut while the commit runs, and update-initramfs exits 1"))) {
            faults.arm(fault);
            LabCli.Run apply = LAB.cli().run("apply", "--device", Topology.GPU, "--yes");
            boolean fired = faults.disarm();
            if (!fault.cutWhen().isEmpty() && !fired) {
                problems.add(fault + ": the fault never fired (the apply ran no such step); CLI: " + apply.all().strip());
            }
            FaultOutcome outcome = FaultOutcome.judge(f.host(), plan, f.before(), f.argsBefore(), f.plannedArgs());
            LabCli.Run status = LAB.cli().run("rollback", "--status");
            if (outcome.state() == FaultOutcome.State.HALF) {
                problems.add(fault + ": the host is half applied after the apply (" + outcome.details()
                        + "); CLI said: " + apply.all().strip());
            } else if (!outcome.saidByStatus(status.all(), apply.all()) || !outcome.saidBy(apply.all())) {
                problems.add(fault + ": the host is " + outcome.state() + " but the CLI does not say so: apply said "
                        + apply.all().strip() + "; rollback --status said " + status.all().strip());
            }
            if (apply.code() == 0 && outcome.state() != FaultOutcome.State.APPLIED) {
                problems.add(fault + ": apply exited 0 but the host is " + outcome.state());
            }
            LabCli.Run rollback = LAB.cli().run("rollback");
            FaultOutcome after = FaultOutcome.judge(f.host(), plan, f.before(), f.argsBefore(), f.plannedArgs());
            boolean nothingToDo = rollback.all().contains("Nothing to roll back");
            if (rollback.code() != 0 && !(nothingToDo && outcome.state() == FaultOutcome.State.UNTOUCHED)) {
                problems.add(fault + ": rollback failed: " + rollback.all().strip());
            }
            if (after.state() != FaultOutcome.State.UNTOUCHED) {
                problems.add(fault + ": after rollback the host is not as before (" + after.details() + ")");
                // give the next fault a clean start: the lab restores by hand what the product left
                restoreByHand(f.before());
            }
        }
        LAB.machine().reboot();
        assertThat(host().runningCmdline()).as("the guest boots with its original command line after the faults")
                .isEqualTo(f.cmdlineBefore());
        assertThat(problems).as("what went wrong, fault by fault").isEmpty();
    }

    /** Only after a failed case, so that the following cases still start from the original host. */
    private static void restoreByHand(Map<String, Optional<byte[]>> before) throws Exception {
        StringBuilder s = new StringBuilder("set -e\n");
        for (Map.Entry<String, Optional<byte[]>> e : before.entrySet()) {
            if (e.getValue().isEmpty()) {
                s.append("rm -f '").append(e.getKey()).append("'\n");
            } else {
                s.append("printf '%s' '").append(Base64.getEncoder().encodeToString(e.getValue().get()))
                        .append("' | base64 -d > '").append(e.getKey()).append("'\n");
            }
        }
        s.append("rm -f /var/lib/gpuforge/journal.json\nupdate-grub 2>/dev/null\nupdate-initramfs -u -k all 2>/dev/null\n");
        LAB.machine().sh(s.toString());
    }

    @Test
    @Order(2)
    void bindingByAddressLeavesTheOtherDeviceWithTheSameIdsOnItsDriver() throws Exception {
        flow = new PassthroughFlow(LAB, LabHost.Boot.GRUB);
        JsonNode plan = flow.planAndRemember(Topology.GPU);
        assertThat(plan.get("functions").toString()).contains(Topology.GPU, Topology.GPU_AUDIO);
        assertThat(plan.toString()).as("the plan binds by address, not by the ids the onboard audio shares")
                .contains(Topology.GPU_AUDIO).doesNotContain("8086:293e");
        flow.apply(Topology.GPU);
        assertThat(host().nextBootArgs()).as("grub.cfg that update-grub regenerated").contains("iommu=pt");

        JsonNode verify = flow.rebootAndVerify();
        assertThat(verify.get("ok").asBoolean()).as("gpuforge verify: %s", verify).isTrue();
        GuestTruth t = host().truth();
        assertThat(t.driver(Topology.GPU)).isEqualTo("vfio-pci");
        assertThat(t.driver(Topology.GPU_AUDIO)).isEqualTo("vfio-pci");
        assertThat(host().exists("/dev/vfio/" + t.group(Topology.GPU))).as("/dev/vfio/<group of the GPU>").isTrue();
        assertThat(t.device(Topology.TWIN_AUDIO).vendor() + ":" + t.device(Topology.TWIN_AUDIO).device())
                .isEqualTo(t.device(Topology.GPU_AUDIO).vendor() + ":" + t.device(Topology.GPU_AUDIO).device());
        assertThat(t.driver(Topology.TWIN_AUDIO)).as("the onboard audio with the same ids").isEqualTo("snd_hda_intel");
    }

    /**
     * From the state scenario 5 left (applied, rebooted, verified). What binds the card is the udev rule, and a copy
     * of it in the initramfs (initramfs-tools' udev hook copies every custom rule there): removed from /etc alone it
     * still binds at the next boot, so the admin's mistake reproduced here is "removed it and rebuilt the
     * initramfs" — then nothing binds the card any more.
     */
    @Test
    @Order(3)
    void verifyFailsLoudlyWhenTheBindingFileWasRemovedBeforeTheReboot() throws Exception {
        String binding = null;
        for (JsonNode e : flow.plan().get("edits")) {
            String after = e.get("after").asText();
            if (after.contains("driver_override") || after.contains("options vfio-pci ids=")) {
                binding = e.get("path").asText();
            }
        }
        assertThat(binding).as("the plan's binding file").isNotNull();
        LAB.machine().sh("rm -f '" + binding + "' && update-initramfs -u -k all >/dev/null");
        LAB.machine().reboot();

        LabCli.Run verify = LAB.cli().run("verify");
        assertThat(verify.code()).as(verify.all()).isNotZero();
        String driver = host().truth().driver(Topology.GPU);
        assertThat(driver).isNotEqualTo("vfio-pci");
        assertThat(verify.out()).contains("FAIL  driver." + Topology.GPU)
                .contains(Topology.GPU + " is bound to " + driver + ", not vfio-pci");
        LabCli.Run back = LAB.cli().run("rollback");
        assertThat(back.code()).as(back.all()).isZero();
    }

    @Test
    @Order(4)
    void aSharedGroupIsRefusedWithoutTheNamedOverrideAndFullyBoundWithIt() throws Exception {
        // from the rolled-back host of the case before: its files as originally, its devices on their own drivers
        LabCli.Run refused = LAB.cli().run("plan", "--device", Topology.SHARED_E1000);
        assertThat(refused.code()).as(refused.all()).isNotZero();
        assertThat(refused.err()).contains("group.isolation");

        PassthroughFlow f = new PassthroughFlow(LAB, LabHost.Boot.GRUB);
        JsonNode plan = f.planAndRemember(Topology.SHARED_E1000, "--allow-shared-group");
        assertThat(plan.get("functions").toString()).contains(Topology.SHARED_E1000, Topology.SHARED_VIRTIO)
                .doesNotContain(Topology.BRIDGE);
        f.apply(Topology.SHARED_E1000, "--allow-shared-group");
        JsonNode verify = f.rebootAndVerify();
        assertThat(verify.get("ok").asBoolean()).as("gpuforge verify: %s", verify).isTrue();

        GuestTruth t = host().truth();
        int group = t.group(Topology.SHARED_E1000);
        // viable: every endpoint of the group on vfio-pci (bridges do not count)
        assertThat(t.driver(Topology.SHARED_E1000)).isEqualTo("vfio-pci");
        assertThat(t.driver(Topology.SHARED_VIRTIO)).isEqualTo("vfio-pci");
        assertThat(t.driver(Topology.BRIDGE)).isNotEqualTo("vfio-pci");
        assertThat(host().exists("/dev/vfio/" + group)).isTrue();
        assertThat(t.driver(Topology.MGMT_NIC)).as("the management NIC has the same ids as a member").isEqualTo("virtio-pci");
    }
}
