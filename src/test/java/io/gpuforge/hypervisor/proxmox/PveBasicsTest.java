package io.gpuforge.hypervisor.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** UPIDs, loose PVE typing and the contract check of requests. */
class PveBasicsTest {

    @Test
    void upidsParseAndBadOnesAreNamed() {
        Upid u = Upid.parse("UPID:pve1:000F4A2C:01B9C8D4:6712A3F0:qmclone:100:root@pam!gpuforge:");
        assertThat(u.node()).isEqualTo("pve1");
        assertThat(u.pid()).isEqualTo(0xF4A2C);
        assertThat(u.started()).isEqualTo(Instant.ofEpochSecond(0x6712A3F0L));
        assertThat(u.type()).isEqualTo("qmclone");
        assertThat(u.id()).contains("100");
        assertThat(u.user()).isEqualTo("root@pam!gpuforge");
        assertThat(Upid.parse("UPID:pve1:00001234:00005678:6712A3F0:aptupdate::root@pam:").id()).isEmpty();
        assertThatThrownBy(() -> Upid.parse("UPID:pve1:zz:1:1:qmstart:100:root@pam:")).hasMessageContaining("not hex");
        assertThatThrownBy(() -> Upid.parse("UPID:pve1:1:2:3:qmstart:root@pam:")).hasMessageContaining("7 fields");
        assertThatThrownBy(() -> Upid.parse("<html>")).hasMessageContaining("not a UPID");
    }

    @Test
    void looseTypingOfRealAnswers() throws Exception {
        JsonNode n = new ObjectMapper().readTree("{\"template\":1,\"running\":\"0\",\"maxmem\":\"17179869184\","
                + "\"cpu\":0.0421,\"vmid\":\"100\",\"name\":null,\"tags\":[1],\"odd\":\"maybe\"}");
        assertThat(PveValues.bool(n, "template")).contains(true);
        assertThat(PveValues.bool(n, "running")).contains(false);
        assertThat(PveValues.bool(n, "odd")).isEmpty();
        assertThat(PveValues.number(n, "maxmem")).hasValue(17179869184L);
        assertThat(PveValues.number(n, "vmid")).hasValue(100);
        assertThat(PveValues.number(n, "odd")).isEmpty();
        assertThat(PveValues.text(n, "name")).isEmpty();
        assertThat(PveValues.text(n, "tags")).isEmpty();
        assertThat(PveValues.text(n, "absent")).isEmpty();
        assertThat(PveValues.send(true)).isEqualTo("1");
    }

    @Test
    void requestsAreCheckedLikePveDoes() {
        PveContract c = PveContract.load();
        PveContract.Endpoint clone = c.find("POST", "/nodes/pve1/qemu/9000/clone").orElseThrow();
        assertThat(ContractValidator.check(clone, Map.of("node", List.of("pve1"), "vmid", List.of("9000"),
                "newid", List.of("123"), "full", List.of("1")))).isEmpty();
        Map<String, String> errors = ContractValidator.check(clone, Map.of("node", List.of("pve1"), "vmid", List.of("9000"),
                "full", List.of("yesplease"), "format", List.of("vhdx"), "colour", List.of("red")));
        assertThat(errors).containsOnlyKeys("newid", "full", "format", "colour");
        assertThat(errors.get("newid")).contains("missing");
        assertThat(errors.get("full")).contains("boolean");
        assertThat(errors.get("format")).contains("enumeration");
        assertThat(errors.get("colour")).contains("not defined");
        PveContract.Endpoint config = c.find("PUT", "/nodes/pve1/qemu/100/config").orElseThrow();
        assertThat(ContractValidator.check(config, Map.of("node", List.of("pve1"), "vmid", List.of("100"),
                "hostpci0", List.of("mapping=gpu-81-00,pcie=1"), "balloon", List.of("0")))).isEmpty();
        assertThat(c.find("GET", "/nodes/pve1/qemu/100/config")).isPresent();
        assertThat(c.find("GET", "/nodes/pve1/lxc")).isPresent();
        assertThat(c.find("GET", "/nodes/pve1/ceph/status")).isEmpty();
    }
}
