/**
 * GPU passthrough from the command line: {@code check}, {@code plan}, {@code apply}, {@code verify}, {@code
 * rollback}, {@code attach}, {@code detach} and the one-step {@code passthrough}.
 */
package io.gpuforge.cli.passthrough;
