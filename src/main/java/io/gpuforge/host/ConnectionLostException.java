package io.gpuforge.host;

/**
 * The connection to a host dropped (network, the host going down, its sshd restarted) while a command ran on it or
 * before the next one could start. The command may or may not have done its work there; nothing more can be done
 * over this connection.
 */
public final class ConnectionLostException extends ProbeException {

    private static final long serialVersionUID = 1L;
    private final String host;
    private final String command;

    public ConnectionLostException(String host, String command, Throwable cause) {
        super("The connection to " + host + " was lost while running '" + command + "'", cause);
        this.host = host;
        this.command = command;
    }

    /** The host, as the user named it ({@code user@host:port}). */
    public String host() {
        return host;
    }

    /** The command that was running (or about to start) when the connection was lost. */
    public String command() {
        return command;
    }
}
