/** The cluster tree's pages: nodes, VMs and GPUs, their actions, and the node and VM pages. */
package io.gpuforge.ui.cluster;
