package io.gpuforge.cli;

import io.gpuforge.domain.ApplyOutcome;
import io.gpuforge.domain.HostChangeException;
import io.gpuforge.domain.HostException;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gpuforge rollback}: restores every file of the last apply byte for byte and re-runs its refresh commands;
 * after a rollback that did not finish, running it again finishes the job.
 */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = "Undo the last apply (or an interrupted one): files restored byte for byte.")
final class RollbackCommand implements Callable<Integer> {

    @Mixin
    HostSource source = new HostSource();

    @Option(names = "--id", paramLabel = "ID", description = "The journal or plan id to roll back (default: the last).")
    String id;

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;

    RollbackCommand(CliServices services) {
        this.services = services;
    }

    @Override
    public Integer call() throws IOException {
        try {
            ApplyOutcome r = services.standalone().passthrough().rollback(source.changeTarget(services),
                    Optional.ofNullable(id), new ApplyCommand.Progress(services.output()), HostSource::refuseUnknownKey);
            ApplyCommand.report(services.output(), r, json.enabled(), false);
            return 0;
        } catch (HostChangeException e) {
            ApplyCommand.failed(services.output(), "gpuforge rollback: ", e, json.enabled());
            return 1;
        } catch (HostException e) {
            services.output().error("gpuforge rollback: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge rollback: " + e.getMessage());
            return 2;
        }
    }
}
