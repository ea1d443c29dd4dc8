package io.gpuforge.hypervisor.libvirt;

/** Runs native clean-up (libvirt RPCs that may wait on a dead network) on its own daemon thread, so callers never wait. */
final class OffThread {

    private OffThread() {
    }

    static void start(String name, Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.start();
    }
}
