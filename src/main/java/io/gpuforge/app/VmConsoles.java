package io.gpuforge.app;

import io.gpuforge.domain.VmRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A new VM's console, for {@link VmProvisioning#console} and {@link VmProvisioning#openConsole}. */
final class VmConsoles {

    private VmConsoles() {
    }

    /**
     * How to open the VM's console: the Proxmox VE web UI's noVNC for the VM (a URL), or virt-viewer's command
     * line for a libvirt host.
     */
    static List<String> console(VmProvisioning.Target t, VmRef vm, String vmName) {
        if (t.proxmox()) {
            String base = t.connection().address().replaceAll("/+$", "");
            return List.of(base + "/?console=kvm&novnc=1&vmid=" + vm.id() + "&vmname=" + vmName + "&node=" + vm.node()
                    + "&resize=off&cmd=");
        }
        return List.of("virt-viewer", "--connect", t.connection().address(), "--wait", vmName);
    }

    /**
     * Opens the console: the noVNC URL with the desktop's browser opener (xdg-open, open, start), or virt-viewer.
     * Fails with what to install when the program is missing.
     */
    static void open(VmProvisioning.Target t, VmRef vm, String vmName, ProgramStarter starter) throws IOException {
        List<String> c = console(t, vm, vmName);
        List<String> command = new ArrayList<>();
        if (t.proxmox()) {
            switch (OsFamily.current()) {
                case WINDOWS:
                    command.addAll(List.of("rundll32", "url.dll,FileProtocolHandler"));
                    break;
                case MAC:
                    command.add("open");
                    break;
                default:
                    command.add("xdg-open");
            }
        }
        command.addAll(c);
        try {
            starter.start(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD));
        } catch (IOException e) {
            throw new IOException("Could not run " + command.get(0) + (t.proxmox() ? ": open " + c.get(0)
                    + " in a browser" : ": install virt-viewer (Debian/Ubuntu: apt install virt-viewer)"), e);
        }
    }
}
