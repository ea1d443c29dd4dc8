/** {@code gpuforge gpu}: list, watch, energy and power limits of GPUs on hosts, hypervisors and inside VMs. */
package io.gpuforge.cli.gpu;
