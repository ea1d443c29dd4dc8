package io.gpuforge.domain.tasks;

/** Hears a task's progress while it runs: each new log line as it comes. Called on the worker's thread. */
@FunctionalInterface
public interface TaskListener {

    void line(String text);

    static TaskListener none() {
        return t -> { };
    }
}
