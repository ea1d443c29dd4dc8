/**
 * Hypervisor sessions: opening a saved or on-the-spot connection and sharing it between the window and the
 * commands.
 */
package io.gpuforge.app.session;
