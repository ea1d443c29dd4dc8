/**
 * "Why won't my GPU VM start?": reads the logs a user gives (files, stdin, pasted text) with a byte limit, and
 * hands them to the pure diagnosis engine ({@code io.gpuforge.diagnose}).
 */
package io.gpuforge.app.diagnose;
