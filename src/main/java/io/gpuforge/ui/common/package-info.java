/**
 * What the window's features share: dialogs, background tasks, loadable state, texts, icons, themes and layout
 * helpers.
 */
package io.gpuforge.ui.common;
