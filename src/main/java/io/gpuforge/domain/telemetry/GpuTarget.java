package io.gpuforge.domain.telemetry;

import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.connections.ConnectionInfo;

/** Where to read GPUs from, as the CLI and the window name it. */
public sealed interface GpuTarget {

    /** This computer: NVML, else nvidia-smi, plus amdgpu hwmon. */
    record Local() implements GpuTarget {
    }

    /** A copy of a host's {@code /} (amdgpu hwmon files). */
    record Sysroot(Path dir) implements GpuTarget {
        public Sysroot {
            Objects.requireNonNull(dir);
        }
    }

    /**
     * A host over SSH: one nvidia-smi stream, plus amdgpu hwmon.
     *
     * @param sshConfig another OpenSSH client config than {@code ~/.ssh/config}
     * @param agent     whether the SSH agent is asked for keys
     */
    record Ssh(String userAtHost, Optional<Path> identity, Optional<char[]> password, Optional<Path> knownHosts,
               boolean acceptNewHostKey, Optional<Path> sshConfig, boolean agent) implements GpuTarget {
        public Ssh {
            Objects.requireNonNull(userAtHost);
            Objects.requireNonNull(identity);
            Objects.requireNonNull(password);
            Objects.requireNonNull(knownHosts);
            Objects.requireNonNull(sshConfig);
        }

        /** With the user's own SSH config and agent. */
        public Ssh(String userAtHost, Optional<Path> identity, Optional<char[]> password, Optional<Path> knownHosts,
                   boolean acceptNewHostKey) {
            this(userAtHost, identity, password, knownHosts, acceptNewHostKey, Optional.empty(), true);
        }

        @Override
        public String toString() {
            return "Ssh[" + userAtHost + "]";
        }
    }

    /** A DCGM exporter or nvidia_gpu_exporter. */
    record Exporter(URI url) implements GpuTarget {
        public Exporter {
            Objects.requireNonNull(url);
        }
    }

    /** The GPUs passed through to a VM, read inside it through the guest agent. */
    record Guest(ConnectionInfo connection, VmRef vm) implements GpuTarget {
        public Guest {
            Objects.requireNonNull(connection);
            Objects.requireNonNull(vm);
        }
    }

    /** Every GPU of a hypervisor connection that GPUForge can read (the Demo lab's are simulated). */
    record Connection(ConnectionInfo connection) implements GpuTarget {
        public Connection {
            Objects.requireNonNull(connection);
        }
    }
}
