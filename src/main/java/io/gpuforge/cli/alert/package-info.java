/** {@code gpuforge alert}: the window's alert rules, for other tools. */
package io.gpuforge.cli.alert;
