/**
 * The {@code gpuforge} command's entry ({@link io.gpuforge.cli.GpuForgeCli}) and its command tree; each command
 * lives in its feature package.
 */
package io.gpuforge.cli;
