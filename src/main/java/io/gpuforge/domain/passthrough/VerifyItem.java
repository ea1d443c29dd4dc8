package io.gpuforge.domain.passthrough;


/** One verified item. */
public record VerifyItem(String id, boolean ok, String detail) {
}
