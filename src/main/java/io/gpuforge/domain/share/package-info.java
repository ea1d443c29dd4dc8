/**
 * Sharing one GPU among guests instead of handing it out whole: the ways ({@link ShareWay}), a container's device
 * entries ({@link ContainerDevice}) and whether a host's GPU can be shared ({@link ShareReadiness}).
 */
package io.gpuforge.domain.share;
