/**
 * GPU passthrough as a service: readiness per node, the plan, apply and rollback history, verification and the
 * GPUs' assignments.
 */
package io.gpuforge.app.passthrough;
