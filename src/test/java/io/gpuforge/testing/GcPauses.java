package io.gpuforge.testing;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The collector's stop-the-world pauses in this JVM while it is open, for a benchmark to say whether a late frame
 * met one: each pause's length as the JVM reports it (G1: its young and full collections; Shenandoah: its "Pauses"
 * bean, not its concurrent "Cycles"; ZGC likewise). A pause that ends while a frame is due delays that frame by
 * its length.
 */
public final class GcPauses implements AutoCloseable {

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final List<Double> pausesMs = new ArrayList<>();
    private final NotificationListener listener = this::heard;

    public GcPauses() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!gc.getName().endsWith("Cycles") && gc instanceof NotificationEmitter e) {
                e.addNotificationListener(listener, null, null);
                emitters.add(e);
            }
        }
    }

    /** The collectors of this JVM, as its beans name them. */
    public static String collectors() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                .collect(Collectors.joining(", "));
    }

    private void heard(Notification n, Object handback) {
        if (n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            synchronized (pausesMs) {
                pausesMs.add((double) info.getGcInfo().getDuration());
            }
        }
    }

    /** The pauses heard so far, in milliseconds (the JVM reports whole milliseconds), oldest first. */
    public List<Double> pausesMs() {
        synchronized (pausesMs) {
            return List.copyOf(pausesMs);
        }
    }

    @Override
    public void close() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (ListenerNotFoundException ignored) {
                // never added
            }
        }
    }
}
