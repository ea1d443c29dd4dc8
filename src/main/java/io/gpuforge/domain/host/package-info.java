/**
 * Values of a host: its facts and summary, boot setup, modprobe configuration, and the state and errors of changing
 * it.
 */
package io.gpuforge.domain.host;
