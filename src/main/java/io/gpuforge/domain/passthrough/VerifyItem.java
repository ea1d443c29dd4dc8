package io.gpuforge.domain.passthrough;

import io.gpuforge.domain.message.Message;

/** One verified item: what it checks, whether it holds, and what was found, in words. */
public record VerifyItem(String id, boolean ok, Message detail) {
}
