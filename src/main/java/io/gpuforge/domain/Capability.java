package io.gpuforge.domain;

/**
 * What a backend can do. A backend declares what it supports; asking it for anything else is answered
 * with {@link BackendException.Kind#UNSUPPORTED}. The window and the CLI ask before they offer an action.
 */
public enum Capability {
    /** nodes, VMs and GPUs of the whole connection */
    INVENTORY,
    /** a node's PCI functions and IOMMU groups */
    NODE_PCI,
    /** versions, kernel, uptime, load of a node */
    NODE_STATUS,
    /** reboot a node through the hypervisor's API */
    NODE_REBOOT,
    /** start, shut down, reboot, stop */
    VM_LIFECYCLE,
    VM_DELETE,
    /** read and write a VM's configuration with optimistic concurrency */
    VM_CONFIG,
    /** raw PVE keys ({@link ConfigChange.Settings}) */
    VM_CONFIG_SETTINGS,
    /** the whole domain XML ({@link ConfigChange.Document}) */
    VM_CONFIG_DOCUMENT,
    /** pass a GPU through to a VM, and take it back */
    GPU_ATTACH,
    /** template VMs, clone from them, turn a VM into one */
    TEMPLATES,
    CLONE,
    /** define a new VM from a {@link VmSpec} */
    CREATE_VM,
    /** long operations can be cancelled on the server */
    TASK_CANCEL,
    /** run a command inside a VM through the QEMU guest agent */
    GUEST_EXEC,
    /** write a file inside a running VM through the QEMU guest agent (libvirt's NoCloud seed needs no such path) */
    GUEST_FILE_WRITE,
    /** changes arrive by themselves (events or polling) */
    CHANGE_FEED,
    /** a node's recorded CPU, memory and network history (Proxmox VE's RRD) */
    NODE_HISTORY,
    /** LXC containers: list, create from a template, device entries, start, stop, delete (Proxmox VE) */
    CONTAINERS
}
