/**
 * Sharing a GPU among guests, containers first: readiness read from the node's host, the host plan applied like
 * passthrough's, containers created with (or given) a shared GPU's {@code devN} entries, and which containers
 * share which GPU.
 */
package io.gpuforge.app.share;
