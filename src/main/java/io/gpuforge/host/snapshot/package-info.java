/** A host's state before a change, probed and archived, and where on the host it is kept. */
package io.gpuforge.host.snapshot;
