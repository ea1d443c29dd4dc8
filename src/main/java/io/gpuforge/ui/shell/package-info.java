/** The main window: its navigation tree, content area, activity panel and the composition of the features. */
package io.gpuforge.ui.shell;
