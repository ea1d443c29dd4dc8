/** The task log window: running and finished tasks with their output and outcome, and its export. */
package io.gpuforge.ui.tasks;
