package io.gpuforge.host;

import io.gpuforge.testing.SysrootSshServer.TreeHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A host whose {@code /} is a tree, reached without SSH (the same host as {@link
 * io.gpuforge.testing.SysrootSshServer} serves, for tests that run many applies): GPUForge sees a real host
 * (no sysroot) and its commands run, as the tree's own tools.
 */
public final class TreeShell implements HostShell {

    private final LocalShell local = new LocalShell();
    private final TreeHost tree;

    public TreeShell(Path root) throws IOException {
        this.tree = new TreeHost(root);
    }

    public TreeHost tree() {
        return tree;
    }

    @Override
    public String describe() {
        return "tree:" + tree.root().getFileName();
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        return local.run(tree.shellCommand(command), stdin, timeout);
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        return local.run(tree.shellCommand(command), stdin, timeout, lines);
    }

    @Override
    public void close() {
        try {
            tree.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
