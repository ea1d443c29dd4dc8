package io.gpuforge.ui.welcome;

import java.util.Objects;

/**
 * What the welcome page's six choices do; the window that shows the page supplies them (it owns the tree, the
 * add-connection dialog and the Demo lab). Each runs on the FX thread when its choice is activated.
 */
public record WelcomeActions(Runnable thisComputer, Runnable addProxmox, Runnable addLibvirt, Runnable addSsh,
                             Runnable analyseListing, Runnable demoLab) {

    public WelcomeActions {
        Objects.requireNonNull(thisComputer);
        Objects.requireNonNull(addProxmox);
        Objects.requireNonNull(addLibvirt);
        Objects.requireNonNull(addSsh);
        Objects.requireNonNull(analyseListing);
        Objects.requireNonNull(demoLab);
    }
}
