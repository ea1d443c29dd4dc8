/** {@code gpuforge serve}: the monitor without a window, as a service. */
package io.gpuforge.cli.serve;
