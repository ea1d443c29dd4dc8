package io.gpuforge.host.apply;

import io.gpuforge.host.ssh.SshShell;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;

/** Waits, over fresh connections, for a commit that goes on by itself on a test host to end. */
public final class CommitEnd {

    private CommitEnd() {
    }

    /** The host's state once no commit runs there any more; fails after a minute. */
    public static ApplyState await(Callable<SshShell> connect) throws Exception {
        for (int i = 0; i < 300; i++) {
            try (SshShell again = connect.call()) {
                ApplyState s = new HostConfigurator(again, Optional.empty(), false, Clock.systemUTC()).state();
                if (s.kind() != ApplyState.Kind.RUNNING) {
                    return s;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the commit did not end within a minute");
    }
}
