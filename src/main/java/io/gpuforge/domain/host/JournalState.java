package io.gpuforge.domain.host;

/**
 * How far the last apply on a host got, as its journal records it. COMMITTING: the files are staged and the commit
 * runs on the host by itself (detached from GPUForge's connection); its status file on the host says how it ended.
 */
public enum JournalState { APPLYING, COMMITTING, APPLIED, ROLLING_BACK, ROLLED_BACK }
