/**
 * The seam every backend implements ({@link io.gpuforge.hypervisor.Hypervisor}), with the capabilities it declares
 * and its long-running tasks.
 */
package io.gpuforge.hypervisor;
