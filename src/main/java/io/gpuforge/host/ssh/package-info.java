/**
 * The SSH shell: OpenSSH's config and trust rules (known hosts, hashed and revoked keys, the host key policy), jump
 * hosts, key files and their permissions, the agent, and the login prompts a person answers.
 */
package io.gpuforge.host.ssh;
