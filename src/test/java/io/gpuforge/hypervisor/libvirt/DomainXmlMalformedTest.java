package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A domain XML with malformed values, as a mutation fuzzer made them from a real one (a {@code <hostdev>} address
 * {@code bus='0x4z'}, a slot past 0x1f, a memory no machine has, a cut document): the reader gives its typed
 * {@link LibvirtBackendException} naming the element and the attribute, never a {@code NumberFormatException} or an
 * {@code IllegalArgumentException}, and the XML parser prints nothing on stderr under the CLI's own message.
 */
class DomainXmlMalformedTest {

    /** The hostdevs of a real Threadripper passthrough VM (shared fixture) in a whole domain. */
    private static String domain() throws Exception {
        String devices = new String(SharedFixtures.read("libvirt/01-x399-win10-domain-hostdev.xml"),
                StandardCharsets.UTF_8).replaceAll("(?s)<!--.*?-->", "");
        return "<domain type='kvm'><name>win10</name><uuid>4dea22b3-1d52-d8f3-2516-782e98ab3fa0</uuid>"
                + "<memory unit='KiB'>16777216</memory><vcpu placement='static'>8</vcpu>"
                + "<os><type arch='x86_64' machine='pc-i440fx-3.0'>hvm</type></os>" + devices + "</domain>";
    }

    @Test
    void theRealDomainReads() throws Exception {
        VmDetails d = DomainDetails.parse(domain());
        assertThat(d.hostDevices()).hasSize(3);
        assertThat(d.memoryBytes()).isEqualTo(16L << 30);
    }

    @Test
    void aMalformedNumberNamesItsElementAndAttribute() throws Exception {
        String xml = domain();
        assertThatThrownBy(() -> DomainDetails.parse(xml.replaceFirst("bus='0x42'", "bus='0x4z'")))
                .isInstanceOf(LibvirtBackendException.class)
                .hasMessageContaining("the bus of <address> is not a number: '0x4z'");
        assertThatThrownBy(() -> DomainDetails.parse(xml.replaceFirst("slot='0x00'", "slot='0x20'")))
                .isInstanceOf(LibvirtBackendException.class)
                .hasMessageContaining("slot='0x20'").hasMessageContaining("is not a PCI address");
        assertThatThrownBy(() -> DomainDetails.parse(xml.replace(">16777216<", ">99999999999999999999<")))
                .isInstanceOf(LibvirtBackendException.class).hasMessageContaining("<memory> is not a size");
        assertThatThrownBy(() -> DomainDetails.parse(xml.replace("<memory unit='KiB'>16777216<",
                "<memory unit='GiB'>9223372036854775807<"))).isInstanceOf(LibvirtBackendException.class)
                .hasMessageContaining("more than any machine has");
        assertThatThrownBy(() -> DomainDetails.parse(xml.replace(">8</vcpu>", ">eight</vcpu>")))
                .isInstanceOf(LibvirtBackendException.class).hasMessageContaining("<vcpu> is not a number: 'eight'");
    }

    @Test
    void aCutDocumentIsATypedErrorAndNothingOnStderr() throws Exception {
        String xml = domain();
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        Throwable t;
        try {
            t = catchThrowable(() -> DomainDetails.parse(xml.substring(0, xml.length() / 2)));
        } finally {
            System.setErr(before);
        }
        assertThat(t).isInstanceOf(LibvirtBackendException.class).hasMessageStartingWith("libvirt returned XML");
        assertThat(err.toString(StandardCharsets.UTF_8)).as("no [Fatal Error] line of the JDK's parser").isEmpty();
    }

    /** 20,000 mutations of the real domain: each reads, or is refused with the typed error. */
    @Test
    void mutationsGiveOnlyTheTypedError() throws Exception {
        String xml = domain();
        Random random = new Random(44_45);
        String alphabet = "0123456789abcdefxzXZ-+ .:'\"<>&/\u0000\u00e9";
        int refused = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder m = new StringBuilder(xml);
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                int at = random.nextInt(m.length());
                switch (random.nextInt(3)) {
                    case 0 -> m.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> m.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    default -> m.deleteCharAt(at);
                }
            }
            String input = m.toString();
            Throwable t = catchThrowable(() -> DomainDetails.parse(input));
            if (t != null) {
                assertThat(t).as("mutation %d: %s", i, input).isInstanceOf(LibvirtBackendException.class);
                refused++;
            }
        }
        assertThat(refused).as("the fuzz reached malformed inputs").isPositive();
    }
}
