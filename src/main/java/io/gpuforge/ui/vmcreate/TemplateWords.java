package io.gpuforge.ui.vmcreate;

import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.ui.common.I18n;

/**
 * A template's description in the window's language: GPUForge's own templates are described in every language it
 * speaks; a user's template in the words the user gave it.
 */
final class TemplateWords {

    private TemplateWords() {
    }

    static String description(I18n i18n, VmTemplate t) {
        if (!t.builtIn()) {
            return t.description();
        }
        return switch (t.id()) {
            case "ubuntu-cuda" -> i18n.get("vmcreate.builtin.ubuntu-cuda");
            case "inference-node" -> i18n.get("vmcreate.builtin.inference-node");
            case "windows11-gpu" -> i18n.get("vmcreate.builtin.windows11-gpu");
            case "k8s-gpu-worker" -> i18n.get("vmcreate.builtin.k8s-gpu-worker");
            case "slurm-gpu-worker" -> i18n.get("vmcreate.builtin.slurm-gpu-worker");
            default -> t.description();
        };
    }
}
