package io.gpuforge.domain.vm;

/**
 * A template file (or a stored template) could not be read: the message names the field
 * ({@code templates[1].memoryMiB: …}) and says what was wrong. Nothing of the file was imported.
 */
public final class TemplateFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    public TemplateFormatException(String message) {
        super(message);
    }

    public TemplateFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
