/** Saved connections, the links from nodes to their hosts, and their secrets, kept consistent with the secret store. */
package io.gpuforge.app.connections;
