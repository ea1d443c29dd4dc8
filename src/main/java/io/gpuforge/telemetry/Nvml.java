package io.gpuforge.telemetry;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The NVIDIA Management Library through JNA ({@code libnvidia-ml.so.1}, {@code nvml.dll}), function by function:
 * a function this driver's NVML does not have (an older or newer release) is absent, and so is the reading it
 * would give; it never fails the rest. Errors such as "not supported" make a reading absent; "GPU is lost" and the
 * like are reported. One instance per loaded library; thread-safe (NVML is).
 */
public final class Nvml implements AutoCloseable {

    static final int SUCCESS = 0;
    static final int ERROR_NOT_SUPPORTED = 3;
    static final int ERROR_NO_PERMISSION = 4;
    static final int ERROR_GPU_IS_LOST = 15;
    static final int ERROR_FUNCTION_NOT_FOUND = 13;

    private final NativeLibrary lib;
    private final Map<String, Optional<Function>> functions = new ConcurrentHashMap<>();

    private Nvml(NativeLibrary lib) {
        this.lib = lib;
    }

    /** Loads NVML from {@code path}, or from the system's usual places when empty; initialises it. */
    public static Nvml load(Optional<String> path) throws SourceException {
        List<String> names = path.map(List::of).orElse(Platform.isWindows() ? List.of("nvml")
                : List.of("libnvidia-ml.so.1", "nvidia-ml"));
        UnsatisfiedLinkError last = null;
        for (String n : names) {
            try {
                Nvml nvml = new Nvml(NativeLibrary.getInstance(n));
                int rc = nvml.call("nvmlInit_v2").orElseGet(() -> nvml.call("nvmlInit").orElse(ERROR_FUNCTION_NOT_FOUND));
                if (rc != SUCCESS) {
                    throw new SourceException("NVML did not start: " + nvml.error(rc) + " (is the NVIDIA driver loaded?"
                            + " A driver/library version mismatch needs a reboot after a driver update)");
                }
                return nvml;
            } catch (UnsatisfiedLinkError e) {
                last = e;
            }
        }
        // JNA's own words list every place it looked, over several lines: kept for the debug log, not the user
        if (last != null) {
            org.slf4j.LoggerFactory.getLogger(Nvml.class).debug("NVML not loaded: {}", last.getMessage());
        }
        throw new SourceException("NVML (" + String.join(", ", names) + ") is not on this computer (install the NVIDIA"
                + " driver, or read the GPUs with nvidia-smi)");
    }

    private Optional<Function> function(String name) {
        return functions.computeIfAbsent(name, n -> {
            try {
                return Optional.of(lib.getFunction(n));
            } catch (UnsatisfiedLinkError e) {
                return Optional.empty();
            }
        });
    }

    /** Calls an NVML function; empty when this NVML does not have it. */
    Optional<Integer> call(String name, Object... args) {
        return function(name).map(f -> f.invokeInt(args));
    }

    public boolean has(String name) {
        return function(name).isPresent();
    }

    public String error(int rc) {
        Optional<Function> f = function("nvmlErrorString");
        String text = f.map(x -> x.invokeString(new Object[] {rc}, false)).orElse(null);
        return (text == null ? "NVML error" : text) + " (" + rc + ")";
    }

    public int count() throws SourceException {
        Memory n = new Memory(4);
        int rc = call("nvmlDeviceGetCount_v2", n).orElseGet(() -> call("nvmlDeviceGetCount", n).orElse(ERROR_FUNCTION_NOT_FOUND));
        if (rc != SUCCESS) {
            throw new SourceException("NVML cannot count the GPUs: " + error(rc));
        }
        return n.getInt(0);
    }

    public Pointer handle(int index) throws SourceException {
        PointerByReference p = new PointerByReference();
        int rc = call("nvmlDeviceGetHandleByIndex_v2", index, p)
                .orElseGet(() -> call("nvmlDeviceGetHandleByIndex", index, p).orElse(ERROR_FUNCTION_NOT_FOUND));
        if (rc != SUCCESS) {
            throw new SourceException("NVML cannot open GPU " + index + ": " + error(rc)
                    + (rc == ERROR_GPU_IS_LOST ? " (the GPU fell off the bus; it needs a reset or a reboot)" : ""));
        }
        return p.getValue();
    }

    /** A text property ({@code nvmlDeviceGetName}, {@code nvmlDeviceGetUUID}); empty when absent. */
    public Optional<String> text(String function, Pointer device) {
        Memory buf = new Memory(96);
        buf.clear();
        return call(function, device, buf, 96).filter(rc -> rc == SUCCESS).map(rc -> buf.getString(0));
    }

    /** An unsigned int out-parameter after the given arguments; empty when absent or not supported. */
    public OptionalLong uint(String function, Object... args) throws SourceException {
        Memory out = new Memory(4);
        Object[] all = append(args, out);
        Optional<Integer> rc = call(function, all);
        return result(function, rc, () -> out.getInt(0) & 0xFFFFFFFFL);
    }

    /** An unsigned long long out-parameter. */
    public OptionalLong ulong(String function, Object... args) throws SourceException {
        Memory out = new Memory(8);
        Optional<Integer> rc = call(function, append(args, out));
        return result(function, rc, () -> out.getLong(0));
    }

    /** A struct of {@code n} unsigned ints (or longs) filled by the function. */
    public Optional<long[]> struct(String function, Pointer device, int n, boolean longs) throws SourceException {
        Memory out = new Memory((long) n * (longs ? 8 : 4));
        out.clear();
        Optional<Integer> rc = call(function, device, out);
        OptionalLong ok = result(function, rc, () -> 1);
        if (ok.isEmpty()) {
            return Optional.empty();
        }
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = longs ? out.getLong(8L * i) : out.getInt(4L * i) & 0xFFFFFFFFL;
        }
        return Optional.of(v);
    }

    /** Two unsigned int out-parameters (min, max). */
    public Optional<long[]> uintPair(String function, Pointer device) throws SourceException {
        Memory a = new Memory(4);
        Memory b = new Memory(4);
        Optional<Integer> rc = call(function, device, a, b);
        OptionalLong ok = result(function, rc, () -> 1);
        return ok.isEmpty() ? Optional.empty() : Optional.of(new long[] {a.getInt(0) & 0xFFFFFFFFL, b.getInt(0) & 0xFFFFFFFFL});
    }

    private interface Value {
        long get();
    }

    private OptionalLong result(String function, Optional<Integer> rc, Value v) throws SourceException {
        if (rc.isEmpty()) {
            return OptionalLong.empty();
        }
        int code = rc.get();
        if (code == SUCCESS) {
            return OptionalLong.of(v.get());
        }
        if (code == ERROR_GPU_IS_LOST) {
            throw new SourceException("the GPU is lost (" + function + "): it fell off the bus and needs a reset or a reboot");
        }
        return OptionalLong.empty();
    }

    private static Object[] append(Object[] args, Object last) {
        Object[] all = new Object[args.length + 1];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = last;
        return all;
    }

    /** Sets the power limit in milliwatts; returns NVML's code. */
    public int setPowerLimit(Pointer device, long milliwatts) {
        return call("nvmlDeviceSetPowerManagementLimit", device, (int) milliwatts).orElse(ERROR_FUNCTION_NOT_FOUND);
    }

    @Override
    public void close() {
        call("nvmlShutdown");
    }
}
