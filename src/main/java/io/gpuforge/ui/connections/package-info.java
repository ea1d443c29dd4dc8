/** Adding, editing and testing connections in the window. */
package io.gpuforge.ui.connections;
