/** Values of saved connections: what a connection is, its options, its state, and the link from a node to its host. */
package io.gpuforge.domain.connections;
