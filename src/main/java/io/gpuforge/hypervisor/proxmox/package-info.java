/**
 * The Proxmox VE backend: the REST client (pinned TLS, tokens or tickets, no redirects), its contract with the
 * official schema, inventory, tasks, mappings and GPU attach.
 */
package io.gpuforge.hypervisor.proxmox;
