package io.gpuforge.store;

/** A storage failure, with a message that names the file or operation. */
public class StoreException extends Exception {

    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
