package io.gpuforge.domain;

/** How far the last apply on a host got, as its journal records it. */
public enum JournalState { APPLYING, APPLIED, ROLLING_BACK, ROLLED_BACK }
