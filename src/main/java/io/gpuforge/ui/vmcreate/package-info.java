/**
 * The VM creation wizard: template or spec, resources checked against the node's free ones, cloud-init, a GPU,
 * and the task followed to the running VM.
 */
package io.gpuforge.ui.vmcreate;
