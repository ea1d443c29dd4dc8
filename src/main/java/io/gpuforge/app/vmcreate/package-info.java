/**
 * VM creation from templates and specs: checks against free resources, cloud-init user data with hashed passwords,
 * first-boot provisioning and snippet clean-up.
 */
package io.gpuforge.app.vmcreate;
