/** The user's settings (theme, language, window bounds, where new host keys go) and their file. */
package io.gpuforge.app.settings;
