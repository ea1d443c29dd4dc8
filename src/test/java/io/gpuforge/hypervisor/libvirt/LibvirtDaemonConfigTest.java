package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import java.nio.file.Files;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A real domain's configuration with a secret in it (a VNC password): the document handed out does not show
 * it, a change of resources keeps it, and another client changing only the secret is still a change that a
 * write based on the old version must not overwrite.
 */
class LibvirtDaemonConfigTest {

    private final String name = "gf-config-" + Long.toHexString(System.nanoTime());

    @AfterEach
    void undefine() throws Exception {
        if (!Files.exists(LibvirtDaemon.SOCKET)) {
            return; // skipped: nothing was defined
        }
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            if (c.domains().stream().anyMatch(v -> v.name().equals(name))) {
                c.undefine(name);
            }
        }
    }

    private static String secureXml(String name) throws Exception {
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            return c.withDomain(name, "read " + name,
                    d -> d.getXMLDesc(DomainConfigs.XML_INACTIVE | DomainConfigs.XML_SECURE));
        }
    }

    @Test
    void aVncPasswordStaysOutOfTheDocumentSurvivesAChangeAndCountsAsAChange() throws Exception {
        LibvirtDaemon.socketOrSkip();
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            c.define(HypervisorSpecs.spec(name));
        }
        try (LibvirtHypervisor h = LibvirtHypervisor.open(LibvirtDaemon.URI)) {
            VmRef vm = new VmRef(h.inventory().name(), name);
            VmConfig plain = h.readConfig(vm);
            VmConfig withVnc = h.writeConfig(vm, new ConfigChange.Document(plain.document().replace("</devices>",
                    "<graphics type='vnc' autoport='yes' passwd='gf-s3crt'/></devices>")), plain.version());
            assertThat(withVnc.document()).contains("<graphics type='vnc'").doesNotContain("gf-s3crt");

            VmConfig two = h.writeConfig(vm, new ConfigChange.Resources(OptionalInt.of(2), OptionalLong.empty(),
                    Optional.empty()), withVnc.version());
            assertThat(two.details().vcpus()).isEqualTo(2);
            assertThat(secureXml(name)).contains("passwd='gf-s3crt'");

            // another client changes the password only
            try (LibvirtConnection other = LibvirtConnection.open(LibvirtDaemon.URI)) {
                String changed = secureXml(name).replace("gf-s3crt", "gf-other");
                other.call("redefine " + name, conn -> {
                    conn.domainDefineXML(changed).free();
                    return null;
                });
            }
            assertThatThrownBy(() -> h.writeConfig(vm, new ConfigChange.Resources(OptionalInt.of(1), OptionalLong.empty(),
                    Optional.empty()), two.version())).isInstanceOfSatisfying(BackendException.class,
                            e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.CONFLICT));
            assertThat(secureXml(name)).contains("passwd='gf-other'");
            assertThat(h.readConfig(vm).details().vcpus()).isEqualTo(2);
        }
    }
}
