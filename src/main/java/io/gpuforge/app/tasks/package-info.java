/** The task log shared by the window and the CLI, and its export. */
package io.gpuforge.app.tasks;
