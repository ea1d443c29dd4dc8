package io.gpuforge.app.host;

/** Asks the user whether to trust an SSH host key seen for the first time (fingerprint shown). */
@FunctionalInterface
public interface HostKeyPrompt {

    boolean trust(String host, String keyType, String fingerprint);
}
