/** {@code gpuforge connection} and {@code gpuforge link}: saved connections and the hosts linked to nodes. */
package io.gpuforge.cli.connections;
