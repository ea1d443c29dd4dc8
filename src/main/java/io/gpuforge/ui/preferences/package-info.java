/** The preferences window: appearance, the secret store, host keys and settings. */
package io.gpuforge.ui.preferences;
