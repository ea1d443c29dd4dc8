/**
 * Pure passthrough logic over domain values: readiness checks, the planner with its boot loader and initramfs
 * strategies, VM changes and the post-reboot verifier.
 */
package io.gpuforge.passthrough;
