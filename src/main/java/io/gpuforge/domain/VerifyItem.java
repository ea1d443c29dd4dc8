package io.gpuforge.domain;


/** One verified item. */
public record VerifyItem(String id, boolean ok, String detail) {
}
