package io.gpuforge.store.secret;

/** A secret could not be stored or read; the message says why, never what the secret is. */
public class SecretStoreException extends Exception {

    private static final long serialVersionUID = 1L;

    public SecretStoreException(String message) {
        super(message);
    }

    public SecretStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
