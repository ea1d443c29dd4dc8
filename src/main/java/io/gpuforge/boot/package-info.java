/**
 * Entry points only: the launcher, the JavaFX application, the start-up clock and early logging; they build the
 * composition root and hand it to the window or the CLI.
 */
package io.gpuforge.boot;
