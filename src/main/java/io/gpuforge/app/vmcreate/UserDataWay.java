package io.gpuforge.app.vmcreate;

/** How a template's user-data reached a new VM ({@link VmCreateResult}); {@code --json} says {@link #json()}. */
public enum UserDataWay {
    /** no user-data to send (Windows, a clone, libvirt's NoCloud seed carries it) */
    NONE("none"),
    /** a snippet on the node, set as {@code cicustom} */
    SNIPPET("snippet"),
    /** over the guest agent after the first boot */
    GUEST_AGENT("guest-agent"),
    /** over the guest agent after the first boot, once GPUForge starts the VM and is asked to */
    GUEST_AGENT_LATER("guest-agent-later");

    private final String json;

    UserDataWay(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
