package io.gpuforge.testing;

import io.gpuforge.demo.PveSimulator;
import io.gpuforge.demo.SimCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A generated Proxmox VE cluster served by the simulator in a Java process of its own, at the lowest priority (nice
 * 19): as a real cluster runs on other machines, its work and its garbage stay out of the measured app's process. For
 * benchmarks of the window. Its {@link #main} prints the URL, the API token and the certificate's fingerprint, a line
 * each, and serves until its standard input closes.
 */
public final class ClusterProcess implements AutoCloseable {

    private final Process process;
    private final String url;
    private final String token;
    private final String fingerprint;

    /** Starts a cluster of {@code nodes} nodes, {@code vms} VMs and {@code gpus} GPUs, and waits for it to serve. */
    public ClusterProcess(int nodes, int vms, int gpus) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of("nice", "-n", "19", java, "-XX:TieredStopAtLevel=1",
                "-cp", classpath, ClusterProcess.class.getName(), String.valueOf(nodes), String.valueOf(vms),
                String.valueOf(gpus)));
        process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        url = out.readLine();
        token = out.readLine();
        fingerprint = out.readLine();
        if (fingerprint == null) {
            process.destroyForcibly();
            throw new IOException("the simulated cluster did not start (exit " + exit() + ")");
        }
    }

    public String url() {
        return url;
    }

    public String token() {
        return token;
    }

    public String certificateFingerprint() {
        return fingerprint;
    }

    private String exit() {
        try {
            return process.waitFor(10, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "none yet";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    @Override
    public void close() throws IOException {
        process.getOutputStream().close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** In the cluster's process: {@code nodes vms gpus}. */
    public static void main(String[] args) throws Exception {
        try (PveSimulator sim = new PveSimulator(SimCluster.generated(Integer.parseInt(args[0]),
                Integer.parseInt(args[1]), Integer.parseInt(args[2])))) {
            System.out.println(sim.url());
            System.out.println(sim.token());
            System.out.println(sim.certificateFingerprint());
            System.out.flush();
            while (System.in.read() != -1) {
                // serves until the benchmark closes our input (or ends)
            }
        }
    }
}
