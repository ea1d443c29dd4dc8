/** The GPU monitor: live charts, history, the fleet, alerts, power limits and cost. */
package io.gpuforge.ui.monitor;
