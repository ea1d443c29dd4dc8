/**
 * Words an engine says to the user before any language is chosen: a message key and its arguments, rendered by the
 * window and the command in the user's language.
 */
package io.gpuforge.domain.message;
