/**
 * Values of GPU telemetry: GPU ids, metrics, samples and series, sources, alert rules and events, power limits,
 * cost and energy.
 */
package io.gpuforge.domain.telemetry;
