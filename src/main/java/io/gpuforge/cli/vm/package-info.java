/** {@code gpuforge vm}: create, provision, clone, copy, lifecycle and cloud-init snippets of VMs. */
package io.gpuforge.cli.vm;
