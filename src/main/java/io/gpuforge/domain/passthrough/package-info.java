/**
 * Values of passthrough: plans, overrides, checks and verdicts, readiness, verification, and an apply's progress
 * and outcome.
 */
package io.gpuforge.domain.passthrough;
