/**
 * Reads of outside input with a total deadline and a byte limit, one small helper per transport (HTTP bodies here):
 * past either, a {@link io.gpuforge.bounded.BoundedReadException} that names the source, the limit and what was read.
 * Depends on the JDK only; the backends and services use it.
 */
package io.gpuforge.bounded;
