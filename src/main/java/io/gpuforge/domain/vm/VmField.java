package io.gpuforge.domain.vm;

/** A value of a VM to create, as the wizard and the CLI ask for it: where a refusal points. */
public enum VmField {
    NAME, VMID, CORES, MEMORY, CPU_TYPE, DISK, STORAGE, NETWORK, IMAGE, CI_USER, CI_PASSWORD, SSH_KEYS, IP, GATEWAY,
    DNS, GPU, OTHER,
    /** the template VM a clone is made from */
    SOURCE
}
