/**
 * Immutable values every layer shares, with no I/O and no library; what spans the feature groups below sits here
 * (backend errors, capabilities, the cluster inventory).
 */
package io.gpuforge.domain;
