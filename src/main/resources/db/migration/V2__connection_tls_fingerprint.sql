-- GPUForge schema, version 2: the SHA-256 fingerprint a user accepted for a server's certificate (Proxmox VE).
ALTER TABLE connection ADD COLUMN tls_fingerprint TEXT;
