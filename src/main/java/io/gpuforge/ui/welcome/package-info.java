/** The welcome page, with the Demo lab one click away. */
package io.gpuforge.ui.welcome;
