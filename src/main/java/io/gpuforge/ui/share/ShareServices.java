package io.gpuforge.ui.share;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.share.ContainerService;
import io.gpuforge.app.share.ShareService;
import java.util.Objects;

/**
 * What the share windows (the container wizard, "Add a GPU to a container…", a plan's window) work through, and
 * nothing else of the application: the shares, the containers, and the hypervisor sessions. Built by the shell (the
 * composition root) and handed to the features that open them.
 */
public record ShareServices(ShareService shares, ContainerService containers, Sessions sessions) {

    public ShareServices {
        Objects.requireNonNull(shares);
        Objects.requireNonNull(containers);
        Objects.requireNonNull(sessions);
    }

    /** Taken from the application's services: by the composition root, once. */
    public static ShareServices of(AppContext app) {
        return new ShareServices(app.shares(), app.containers(), app.sessions());
    }
}
