/** {@code gpuforge diagnose}: the cause of a failed GPU VM start from the logs a user has, and its fix. */
package io.gpuforge.cli.diagnose;
