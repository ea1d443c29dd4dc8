/**
 * The window's "Diagnose a failed VM start…": paste or open the logs of a GPU VM that did not start, and see the
 * cause, the lines that show it (highlighted) and the fix with its plan.
 */
package io.gpuforge.ui.diagnose;
