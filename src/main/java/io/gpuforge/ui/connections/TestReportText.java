package io.gpuforge.ui.connections;

import io.gpuforge.app.backends.ConnectionTester;
import io.gpuforge.app.backends.PrivilegeCheck;
import io.gpuforge.ui.common.I18n;
import java.util.ArrayList;
import java.util.List;

/** What "Test connection" found, in the user's words: versions, nodes, VMs, and each privilege missing. Pure. */
final class TestReportText {

    private TestReportText() {
    }

    static String of(ConnectionTester.Report r, I18n i18n) {
        if (!r.ok()) {
            return r.message();
        }
        List<String> lines = new ArrayList<>();
        StringBuilder head = new StringBuilder(r.versions().orElse(""));
        r.nodes().ifPresent(n -> head.append(" · ").append(i18n.get("console.test.nodes", n)));
        r.vms().ifPresent(n -> head.append(" · ").append(i18n.get("console.test.vms", n)));
        lines.add(head.toString());
        if (r.missing().isEmpty() && r.nodes().isPresent() && r.vms().isPresent()) {
            lines.add(i18n.get("console.test.allPrivileges"));
        }
        if (!r.missing().isEmpty()) {
            lines.add(i18n.get("console.test.missing", r.missing().size()));
            for (PrivilegeCheck.Missing m : r.missing()) {
                lines.add("  • " + i18n.get("console.test.missingOne", m.privilege(), m.path(), purpose(m.purpose(), i18n)));
            }
        }
        return String.join("\n", lines);
    }

    /** What a privilege is for, by the check's purpose id. */
    static String purpose(String id, I18n i18n) {
        switch (id) {
            case "node-pci":
                return i18n.get("console.purpose.nodePci");
            case "node-status":
                return i18n.get("console.purpose.nodeStatus");
            case "node-reboot":
                return i18n.get("console.purpose.nodeReboot");
            case "vm-read":
                return i18n.get("console.purpose.vmRead");
            case "vm-power":
                return i18n.get("console.purpose.vmPower");
            case "gpu-attach":
                return i18n.get("console.purpose.gpuAttach");
            case "vm-firmware":
                return i18n.get("console.purpose.vmFirmware");
            case "vm-memory":
                return i18n.get("console.purpose.vmMemory");
            case "vm-efidisk":
                return i18n.get("console.purpose.vmEfidisk");
            case "vm-create":
                return i18n.get("console.purpose.vmCreate");
            case "vm-clone":
                return i18n.get("console.purpose.vmClone");
            case "vm-console":
                return i18n.get("console.purpose.vmConsole");
            case "guest-agent":
                return i18n.get("console.purpose.guestAgent");
            case "mapping-read":
                return i18n.get("console.purpose.mappingRead");
            case "mapping-use":
                return i18n.get("console.purpose.mappingUse");
            case "mapping-modify":
                return i18n.get("console.purpose.mappingModify");
            default:
                return id;
        }
    }
}
