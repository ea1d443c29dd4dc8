/**
 * The services the window and the command line share, and their one composition root, {@link
 * io.gpuforge.app.AppContext}: this root keeps only the composition and the OS helpers; each feature has its own
 * package below.
 */
package io.gpuforge.app;
