/**
 * Pure diagnosis of failed GPU VM starts over log text: the signature table ({@link Signatures}), the lines as read
 * ({@link LogLines}), the explanations and fixes ({@link Advice}), and the engine that ranks the causes
 * ({@link Diagnoser}). No I/O: text in, a {@code domain.diagnose.Diagnosis} out.
 */
package io.gpuforge.diagnose;
