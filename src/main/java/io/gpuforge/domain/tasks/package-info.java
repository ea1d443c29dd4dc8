/** Values of tasks: their references, records, outcomes, listeners and application events. */
package io.gpuforge.domain.tasks;
