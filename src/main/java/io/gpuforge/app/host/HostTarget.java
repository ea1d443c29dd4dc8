package io.gpuforge.app.host;

import io.gpuforge.app.connections.HostLinks;
import io.gpuforge.domain.connections.ConnectionInfo;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Which host a piece of host-level work (facts, plan, apply, rollback, verify, snapshot) is about, as the CLI's
 * flags or the window's choices name it. The one place that turns it into a shell is {@link HostAccess}.
 */
public sealed interface HostTarget {

    /** A short name for messages and JSON ({@code local}, {@code ssh:root@pve1}, {@code sysroot:/tmp/x}). */
    String describe();

    /** Whether changes can be made there (a listing or a snapshot archive is read-only). */
    default boolean changeable() {
        return true;
    }

    /** This computer. */
    record ThisComputer() implements HostTarget {
        @Override
        public String describe() {
            return "local";
        }
    }

    /** A directory that mirrors a host's {@code /}: read, and edited, there; commands are listed, not run. */
    record Sysroot(Path dir) implements HostTarget {
        public Sysroot {
            Objects.requireNonNull(dir);
        }

        @Override
        public String describe() {
            return "sysroot:" + dir;
        }
    }

    /** A {@code gpuforge snapshot} archive: read only. */
    record Snapshot(Path archive) implements HostTarget {
        public Snapshot {
            Objects.requireNonNull(archive);
        }

        @Override
        public String describe() {
            return "snapshot:" + archive;
        }

        @Override
        public boolean changeable() {
            return false;
        }
    }

    /** A pasted IOMMU listing (optionally with {@code lspci -nnk}): its PCI inventory only, read only. */
    record Listing(String name, byte[] text) implements HostTarget {
        public Listing {
            Objects.requireNonNull(name);
            text = text.clone();
        }

        @Override
        public byte[] text() {
            return text.clone();
        }

        @Override
        public String describe() {
            return "listing:" + name;
        }

        @Override
        public boolean changeable() {
            return false;
        }

        @Override
        public String toString() {
            return "Listing[" + name + ", " + text.length + " bytes]";
        }
    }

    /** A host reached over SSH with a login given on the spot (the CLI's {@code --ssh}). */
    record Ssh(SshLogin login) implements HostTarget {
        public Ssh {
            Objects.requireNonNull(login);
        }

        @Override
        public String describe() {
            return "ssh:" + login.destination();
        }
    }

    /** A saved SSH connection, with its stored credentials and login choices. */
    record Saved(ConnectionInfo connection) implements HostTarget {
        public Saved {
            Objects.requireNonNull(connection);
        }

        @Override
        public String describe() {
            return "ssh:" + connection.name();
        }
    }

    /** The host linked to a node of a hypervisor connection ({@link HostLinks}). */
    record Linked(ConnectionInfo connection, String node) implements HostTarget {
        public Linked {
            Objects.requireNonNull(connection);
            Objects.requireNonNull(node);
        }

        @Override
        public String describe() {
            return connection.name() + "/" + node;
        }
    }
}
