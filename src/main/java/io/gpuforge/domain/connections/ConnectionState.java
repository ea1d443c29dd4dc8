package io.gpuforge.domain.connections;

import java.util.Objects;

/** How a connection is doing, with the reason when it is not connected. */
public record ConnectionState(Status status, String message) {

    public enum Status { CONNECTING, CONNECTED, RECONNECTING, FAILED, CLOSED }

    public ConnectionState {
        Objects.requireNonNull(status);
        Objects.requireNonNull(message);
    }

    public static ConnectionState connected() {
        return new ConnectionState(Status.CONNECTED, "");
    }

    public boolean isConnected() {
        return status == Status.CONNECTED;
    }
}
