/** Where secrets live: the OS keyring through secret-tool, or the encrypted vault. */
package io.gpuforge.store.secret;
