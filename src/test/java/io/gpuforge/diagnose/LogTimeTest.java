package io.gpuforge.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A line's moment from each stamp people's logs carry, on the clock it counts on; none where there is none. */
class LogTimeTest {

    private static LogTime.Stamp at(String line) {
        return LogTime.of(LogLines.plain(line)).orElseThrow(() -> new AssertionError("no stamp: " + line));
    }

    @Test
    void eachStampIsReadOnItsOwnClock() {
        assertThat(at("[ 5682.626559] pcieport 0000:00:01.0: AER: Uncorrected (Fatal) error received"))
                .isEqualTo(new LogTime.Stamp(LogTime.Clock.UPTIME, 5682.626559));
        LogTime.Stamp t = at("[Wed Jun 12 02:42:37 2024] vfio-pci 0000:b3:00.0: BAR 1: can't reserve");
        LogTime.Stamp iso = at("internal error: qemu unexpectedly closed the monitor: 2024-06-12T02:43:45.250000Z"
                + " qemu-kvm: -device vfio-pci");
        assertThat(t.clock()).isEqualTo(LogTime.Clock.DATE).isEqualTo(iso.clock());
        assertThat(iso.seconds() - t.seconds()).isCloseTo(68.25, org.assertj.core.data.Offset.offset(1e-6));
        LogTime.Stamp a = at("Nov 20 21:02:14 pve kernel: vfio-pci 0000:0b:00.0: enabling device");
        LogTime.Stamp b = at("Nov 20 21:02:19.500 pve kernel: vfio-pci 0000:0b:00.0: not ready");
        assertThat(a.clock()).isEqualTo(LogTime.Clock.SYSLOG);
        assertThat(b.seconds() - a.seconds()).isCloseTo(5.5, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void aLineWithoutAStampOrWithANonDateHasNone() {
        for (String line : java.util.List.of("TASK ERROR: start failed: QEMU exited with code 1",
                "kvm: -device vfio-pci,host=0000:01:00.0: vfio 0000:01:00.0: group 1 is not viable",
                "[    0.x] not a time", "2024-13-45T25:00:00 not a date", "Foo 20 21:02:14 pve kernel: x", "")) {
            assertThat(LogTime.of(LogLines.plain(line))).as(line).isEmpty();
        }
    }
}
