package io.gpuforge.domain.vm;

import java.util.Locale;

/** A VM's firmware: legacy BIOS (SeaBIOS) or UEFI (OVMF). */
public enum Firmware {
    BIOS, UEFI, UNKNOWN;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
