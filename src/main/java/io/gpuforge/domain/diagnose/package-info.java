/**
 * What a diagnosis of a failed GPU VM start says, as immutable values: the logs read ({@link Collected}), the
 * causes found with their evidence lines ({@link Finding}), and each cause's fix in words and, where GPUForge can
 * make it, as a plan ({@link FixPlan}).
 */
package io.gpuforge.domain.diagnose;
