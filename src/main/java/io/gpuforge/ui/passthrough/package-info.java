/** The passthrough wizard: readiness, plan, apply, reboot, verify and attach. */
package io.gpuforge.ui.passthrough;
