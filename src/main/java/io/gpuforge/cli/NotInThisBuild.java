package io.gpuforge.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * Base of the commands whose feature has not landed yet: they parse their options, say plainly that
 * this build cannot do it, and exit with {@link GpuForgeCli#EXIT_NOT_AVAILABLE}. They never pretend.
 */
abstract class NotInThisBuild implements Callable<Integer> {

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;
    private final String name;
    private final String feature;

    NotInThisBuild(CliServices services, String name, String feature) {
        this.services = services;
        this.name = name;
        this.feature = feature;
    }

    @Override
    public Integer call() {
        String message = "gpuforge " + name + ": " + feature + " is not available in this build yet.";
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("command", name);
            m.put("error", "not-available");
            m.put("message", message);
            services.output().json(m);
        } else {
            services.output().error(message);
        }
        return GpuForgeCli.EXIT_NOT_AVAILABLE;
    }
}
