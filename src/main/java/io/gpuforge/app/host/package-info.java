/**
 * Access to a host (this computer, SSH, a saved SSH host), its known host keys, the login prompts, and host-level
 * reading, scripts and reboot.
 */
package io.gpuforge.app.host;
