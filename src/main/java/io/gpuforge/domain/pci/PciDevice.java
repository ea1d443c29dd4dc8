package io.gpuforge.domain.pci;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One PCI function as far as it is known. Ids are 4 lower-case hex digits; {@code classCode} is the
 * 4-digit base+sub class ({@code 0300}). Ids and class are null only when a pasted listing left them out
 * (and, for the class, named one we do not know); optional fields are empty when the source did not say.
 */
public record PciDevice(PciAddress address, String vendorId, String deviceId, String classCode,
                        Optional<String> name, Optional<String> driver, OptionalInt iommuGroup, Details details) {

    /** What sysfs tells beyond a listing; {@link #NONE} for devices read from a pasted listing. */
    public record Details(Optional<String> subsystemVendor, Optional<String> subsystemDevice,
                          Optional<String> driverOverride, Optional<Boolean> bootVga, List<String> resetMethods,
                          Optional<String> powerState, OptionalInt sriovTotalVfs, OptionalInt sriovNumVfs,
                          Optional<PciAddress> physicalFunction, List<Long> barSizes, boolean resizableBar,
                          Optional<Long> romSize, OptionalInt numaNode, Optional<String> linkSpeed,
                          OptionalInt linkWidth, Optional<Boolean> d3coldAllowed, List<String> kernelModules) {

        public static final Details NONE = new Details(Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), List.of(), Optional.empty(), OptionalInt.empty(), OptionalInt.empty(),
                Optional.empty(), List.of(), false, Optional.empty(), OptionalInt.empty(), Optional.empty(),
                OptionalInt.empty(), Optional.empty(), List.of());

        public Details {
            resetMethods = List.copyOf(resetMethods);
            barSizes = List.copyOf(barSizes);
            kernelModules = List.copyOf(kernelModules);
        }

        /** Largest BAR in bytes, 0 when unknown. */
        public long largestBar() {
            return barSizes.stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }

    public PciDevice {
        Objects.requireNonNull(address);
        vendorId = vendorId == null ? null : hex4(vendorId, "vendor");
        deviceId = deviceId == null ? null : hex4(deviceId, "device");
        classCode = classCode == null ? null : hex4(classCode, "class");
        Objects.requireNonNull(name);
        Objects.requireNonNull(driver);
        Objects.requireNonNull(iommuGroup);
        Objects.requireNonNull(details);
    }

    /** Accepts {@code 10de}, {@code 0x10de}, {@code 0x030000} (sysfs class: first 4 digits kept). */
    public static String hex4(String raw, String what) {
        if (raw == null) {
            throw new IllegalArgumentException(what + " id missing");
        }
        String s = raw.strip().toLowerCase(Locale.ROOT);
        if (s.startsWith("0x")) {
            s = s.substring(2);
        }
        if (s.length() == 6 && what.equals("class")) {
            s = s.substring(0, 4);
        }
        if (!isHex4(s)) {
            throw new IllegalArgumentException(what + " id is not 4 hex digits: '" + raw + "'");
        }
        return s;
    }

    /**
     * Whether {@code s} is four lower-case hex digits. Checked by hand: a cluster's poll reads thousands of ids, and
     * {@code String.matches} compiled a regular expression for each (13 MB of garbage in 80 s of a 2,000-VM cluster).
     */
    public static boolean isHex4(String s) {
        if (s.length() != 4) {
            return false;
        }
        for (int i = 0; i < 4; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** Base class 03: VGA, XGA, 3D or other display controller. */
    public boolean isGpu() {
        return classCode != null && classCode.startsWith("03");
    }

    /** Host bridge (0600) or PCI-to-PCI bridge/root port (0604): vfio does not need to own them. */
    public boolean isBridge() {
        return "0600".equals(classCode) || "0604".equals(classCode);
    }

    public PciDevice withName(Optional<String> n) {
        return new PciDevice(address, vendorId, deviceId, classCode, n, driver, iommuGroup, details);
    }

    public PciDevice withDriver(Optional<String> d) {
        return new PciDevice(address, vendorId, deviceId, classCode, name, d, iommuGroup, details);
    }

    /** A model as people say it: "NVIDIA Corporation AD102 [GeForce RTX 4090]" is "NVIDIA GeForce RTX 4090". */
    public static String modelName(String pciName) {
        int a = pciName.indexOf('[');
        int b = pciName.lastIndexOf(']');
        if (a < 0 || b < a) {
            return pciName;
        }
        String inner = pciName.substring(a + 1, b).strip();
        String vendor = pciName.startsWith("NVIDIA") ? "NVIDIA " : pciName.startsWith("Advanced Micro Devices")
                || pciName.startsWith("AMD") ? "AMD " : "";
        return inner.startsWith(vendor.strip()) || vendor.isEmpty() ? inner : vendor + inner;
    }
}
