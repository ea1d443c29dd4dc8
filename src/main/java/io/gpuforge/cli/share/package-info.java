/** {@code gpuforge share …} and {@code gpuforge ct …}: a node's GPU shared with its Proxmox containers. */
package io.gpuforge.cli.share;
