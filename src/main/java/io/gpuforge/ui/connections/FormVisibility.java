package io.gpuforge.ui.connections;

import javafx.beans.binding.BooleanBinding;

/**
 * Which parts of the connection form show, following what it says: the fields of its kind; for Proxmox VE the token
 * or the password fields (and the one-time code once the account asked for one); for SSH the key file (and its
 * passphrase once the key turned out to be encrypted) or the password.
 */
final class FormVisibility {

    private final ConnectionForm form;

    FormVisibility(ConnectionForm form) {
        this.form = form;
    }

    BooleanBinding sshFields() {
        return form.kind.isEqualTo(AddConnectionViewModel.Kind.SSH);
    }

    BooleanBinding libvirtFields() {
        return form.kind.isEqualTo(AddConnectionViewModel.Kind.LIBVIRT);
    }

    BooleanBinding proxmoxFields() {
        return form.kind.isEqualTo(AddConnectionViewModel.Kind.PROXMOX);
    }

    BooleanBinding demoNote() {
        return form.kind.isEqualTo(AddConnectionViewModel.Kind.DEMO);
    }

    BooleanBinding tokenFields() {
        return proxmoxFields().and(form.pveAuth.isEqualTo(ConnectionForm.PveAuth.TOKEN));
    }

    BooleanBinding pvePasswordFields() {
        return proxmoxFields().and(form.pveAuth.isEqualTo(ConnectionForm.PveAuth.PASSWORD));
    }

    BooleanBinding oneTimeCode() {
        return pvePasswordFields().and(form.asksOneTimeCode);
    }

    BooleanBinding keyFile() {
        return sshFields().and(form.sshAuth.isEqualTo(ConnectionForm.SshAuth.KEY_FILE));
    }

    BooleanBinding passphrase() {
        return keyFile().and(form.asksPassphrase);
    }

    BooleanBinding sshPassword() {
        return sshFields().and(form.sshAuth.isEqualTo(ConnectionForm.SshAuth.PASSWORD));
    }
}
