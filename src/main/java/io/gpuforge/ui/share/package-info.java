/**
 * The window's side of sharing a GPU with containers: the plan window that moves a container from the old raw lxc
 * lines to devN entries, the container wizard and "Add a GPU to a container…".
 */
package io.gpuforge.ui.share;
