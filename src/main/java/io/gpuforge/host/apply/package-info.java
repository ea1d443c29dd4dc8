/**
 * The journaled, detached apply and rollback: a plan's files staged and committed by a script that outlives the
 * connection, its journal checked before it runs, its status read back, and a failed or interrupted one recovered.
 */
package io.gpuforge.host.apply;
