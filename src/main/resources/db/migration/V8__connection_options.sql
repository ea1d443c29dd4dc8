-- GPUForge schema: a connection's login options as JSON (SSH: agent, key file, sudo, where a kept key passphrase
-- is in the secret store). NULL: none chosen. Never a secret.
ALTER TABLE connection ADD COLUMN options TEXT;
