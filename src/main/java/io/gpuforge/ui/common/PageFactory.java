package io.gpuforge.ui.common;

import java.util.Optional;

/**
 * Builds the pages of one kind of tree item (this computer, SSH hosts, hypervisor connections…) and keeps the
 * models behind them. The main window asks each factory in turn; it never branches on the kind itself.
 */
public interface PageFactory {

    /** The page for the item, if this factory serves it. */
    Optional<Page> page(NavItem item);

    /** F5: reads again everything this factory has shown or read. */
    void refresh();

    /** The window closes: stop watches and release connections (never waiting on the network). */
    void dispose();
}
