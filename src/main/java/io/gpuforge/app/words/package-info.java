/** What the engines say, rendered in the user's language for the window and the command. */
package io.gpuforge.app.words;
