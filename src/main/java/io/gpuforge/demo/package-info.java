/**
 * The simulated Proxmox VE cluster (held to the API contract) and the simulated hosts behind the Demo lab and the
 * tests.
 */
package io.gpuforge.demo;
