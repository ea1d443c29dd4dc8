package io.gpuforge.demo;

import io.gpuforge.bounded.BoundedStreams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Where a simulated cluster keeps what users change in it, so the Demo lab remembers across runs of the CLI and the
 * window: a directory with the cluster's state ({@code cluster.json}, written whole to a temporary file and moved
 * into place), a generation counter that moves with every write, the simulated hosts' trees ({@code hosts/}), and a
 * lock file. Every request the simulator answers is one turn under the lock: the state is read again first when
 * another process wrote it since, and written after the request when it changed. Two processes at once (the window
 * and a command) thereby see each other's changes.
 */
public final class SimStore {

    /** The most a state file may hold. */
    private static final long MAX_STATE = 64L << 20;
    /**
     * Locks within this process, one per directory: a file lock belongs to the whole process, so two simulators of
     * one process (two application contexts over one home, in tests) take turns here before they take the file's.
     */
    private static final ConcurrentMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

    private final Path dir;
    private long generation = -1;
    private String written = "";

    public SimStore(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
    }

    /** The directory of the simulated hosts' trees. */
    public Path hosts() {
        return dir.resolve("hosts");
    }

    /**
     * Starts the cluster from what was kept: its state read when there is one, else the cluster as built written as
     * the first. Called once, before the simulator answers.
     */
    void attach(SimCluster c) {
        synchronized (c) {
            locked(() -> {
                if (Files.exists(state())) {
                    load(c);
                } else {
                    save(c, true);
                }
                return null;
            });
        }
    }

    /** One request: under the lock, the state read again if another process wrote it, written if it changed. */
    <T> T turn(SimCluster c, Supplier<T> work) {
        return locked(() -> {
            if (generationOnDisk() != generation) {
                load(c);
            }
            T t = work.get();
            save(c, false);
            return t;
        });
    }

    /** How many times the lab was reset: the simulated hosts start again when it moves. */
    long epoch() {
        return locked(this::epochOnDisk);
    }

    /**
     * Starts the lab afresh: the cluster as built, written over the kept one (simulators running read it at their
     * next request), and the simulated hosts' trees removed (made again at their next use).
     */
    public void reset(SimCluster fresh) {
        synchronized (fresh) {
            locked(() -> {
                try {
                    SimBoot.deleteTree(hosts());
                    write("epoch", String.valueOf(epochOnDisk() + 1));
                } catch (IOException e) {
                    throw new UncheckedIOException("the Demo lab in " + dir + " could not be reset: " + e.getMessage(), e);
                }
                save(fresh, true);
                generation = -1; // this process's own cluster reads the fresh state at its next request too
                return null;
            });
        }
    }

    private void load(SimCluster c) {
        try {
            String json = BoundedStreams.readString(state(), MAX_STATE);
            SimState.overlay(c, json);
            written = SimState.write(c);
            generation = generationOnDisk();
        } catch (IOException e) {
            throw new UncheckedIOException("the Demo lab's state " + state() + " could not be read: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the Demo lab's state " + state() + " is damaged (" + e.getMessage()
                    + "): start it afresh with gpuforge connection add \"Demo lab\" --demo --reset", e);
        }
    }

    private void save(SimCluster c, boolean always) {
        String now = SimState.write(c);
        if (!always && now.equals(written)) {
            return;
        }
        try {
            write("cluster.json", now);
            generation = generationOnDisk() + 1;
            write("generation", String.valueOf(generation));
            written = now;
        } catch (IOException e) {
            throw new UncheckedIOException("the Demo lab's state could not be written to " + dir + ": "
                    + e.getMessage(), e);
        }
    }

    private Path state() {
        return dir.resolve("cluster.json");
    }

    private long generationOnDisk() {
        return number("generation");
    }

    private long epochOnDisk() {
        return number("epoch");
    }

    private long number(String name) {
        try {
            Path f = dir.resolve(name);
            return Files.exists(f) ? Long.parseLong(BoundedStreams.readString(f, 64).strip()) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /** Writes a file whole: a reader sees the old content or the new, never a part. */
    private void write(String name, String content) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private <T> T locked(Supplier<T> work) {
        ReentrantLock here = IN_PROCESS.computeIfAbsent(dir, d -> new ReentrantLock());
        here.lock();
        try {
            Files.createDirectories(dir);
            try (FileChannel ch = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock l = ch.lock()) {
                return work.get();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the Demo lab's lock in " + dir + " could not be taken: " + e.getMessage(), e);
        } finally {
            here.unlock();
        }
    }
}
