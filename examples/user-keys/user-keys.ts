/**
 * The keys of the signed-in user, the account `hosting:token` belongs to: a GPG key and an SSH
 * signing key that make its signed commits show as verified, and an SSH key to push with. Used by
 * this example's program and by the root demo.
 *
 * Keys cannot be edited on the platform: a new key, title or name replaces it (the old one is
 * deleted first). The comment at the end of an SSH key line is not part of the key: changing it
 * changes nothing.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface UserKeySettings {
  /** An ASCII-armored GPG public key block (`gpg --armor --export you@example.com`). */
  gpgKey?: string;
  gpgKeyName?: string;
  /** An SSH public key line (`~/.ssh/id_ed25519.pub`), for authentication. */
  sshKey?: string;
  sshKeyTitle?: string;
  /** An SSH public key line for signing commits. */
  signingKey?: string;
  signingKeyTitle?: string;
}

/** Declares each key that is given; returns what the platform read from them. */
export function declareUserKeys(settings: UserKeySettings): Record<string, pulumi.Output<unknown>> {
  const outputs: Record<string, pulumi.Output<unknown>> = {};
  if (settings.gpgKey !== undefined) {
    const gpg = new hosting.UserGpgKey("gpg-key", {
      armoredPublicKey: settings.gpgKey,
      ...(settings.gpgKeyName ? { name: settings.gpgKeyName } : {}),
    });
    outputs.gpgKeyId = gpg.keyId;
    outputs.gpgEmails = gpg.emails;
  }
  if (settings.sshKey !== undefined) {
    const ssh = new hosting.UserSshKey("ssh-key", {
      key: settings.sshKey,
      ...(settings.sshKeyTitle ? { title: settings.sshKeyTitle } : {}),
    });
    outputs.sshKeyId = ssh.keyId;
  }
  if (settings.signingKey !== undefined) {
    const signing = new hosting.UserSshSigningKey("ssh-signing-key", {
      key: settings.signingKey,
      ...(settings.signingKeyTitle ? { title: settings.signingKeyTitle } : {}),
      // To adopt a signing key already on the account instead: importId: <its id>,
    });
    outputs.signingKeyId = signing.keyId;
  }
  return outputs;
}
