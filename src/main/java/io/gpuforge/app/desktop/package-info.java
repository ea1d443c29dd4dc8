/**
 * The desktop around the app: starting programs the user asks for (a VM's console in virt-viewer or the browser,
 * the file manager) from a thread that never gave way to the window.
 */
package io.gpuforge.app.desktop;
