/**
 * GPU sources (NVML, nvidia-smi streams, the guest agent, hwmon, exporters), the sampler, alert evaluation and the
 * Prometheus endpoint.
 */
package io.gpuforge.telemetry;
