/**
 * Which hypervisor backends there are, the Demo lab, and testing a connection before it is saved (privileges,
 * trust, the user's prompts).
 */
package io.gpuforge.app.backends;
