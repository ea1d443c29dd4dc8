package io.gpuforge.ui.cluster;

import org.kordamp.ikonli.feather.Feather;

/** The label key and icon of each VM action, the same on the VM page and in the tree's menu. */
public final class ActionLabels {

    private ActionLabels() {
    }

    public static String key(VmActions.Kind k) {
        switch (k) {
            case START:
                return "console.vm.start";
            case SHUTDOWN:
                return "console.vm.shutdown";
            case REBOOT:
                return "console.vm.reboot";
            case STOP:
                return "console.vm.stop";
            case CLONE:
                return "console.vm.clone";
            case TEMPLATE:
                return "console.vm.template";
            case DELETE:
                return "console.vm.delete";
            default:
                return "console.vm.console";
        }
    }

    public static Feather icon(VmActions.Kind k) {
        switch (k) {
            case START:
                return Feather.PLAY;
            case SHUTDOWN:
                return Feather.POWER;
            case REBOOT:
                return Feather.ROTATE_CW;
            case STOP:
                return Feather.SQUARE;
            case CLONE:
                return Feather.COPY;
            case TEMPLATE:
                return Feather.FILE;
            case DELETE:
                return Feather.TRASH_2;
            default:
                return Feather.MONITOR;
        }
    }
}
