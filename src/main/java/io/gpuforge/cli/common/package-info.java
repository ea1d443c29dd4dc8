/**
 * What every command shares: the output writer, the services, the vault unlock, and the host, hypervisor, SSH and
 * JSON options.
 */
package io.gpuforge.cli.common;
