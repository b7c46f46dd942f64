/**
 * The keys of the signed-in user, the account `hosting:token` belongs to: a GPG key and an SSH
 * signing key that make its signed commits show as verified, and an SSH key to push with.
 *
 * Each key is read from a file, as the tools that make them write it:
 *
 *   gpg --armor --export you@example.com > gpg.asc && pulumi config set gpgKeyFile gpg.asc
 *   pulumi config set sshKeyFile ~/.ssh/id_ed25519.pub
 *   pulumi config set signingKeyFile ~/.ssh/id_ed25519_signing.pub
 *
 * A key whose file is not configured is not declared. Keys cannot be edited on the platform: a new
 * key or title replaces it (the old one is deleted first). The comment at the end of an SSH key
 * line is not part of the key: changing it changes nothing.
 */
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

const config = new pulumi.Config();
const fileOf = (key: string): string | undefined => {
  const path = config.get(key);
  return path === undefined ? undefined : readFileSync(path, "utf8");
};

const gpg = fileOf("gpgKeyFile");
const ssh = fileOf("sshKeyFile");
const signing = fileOf("signingKeyFile");

export const gpgKey = gpg
  ? new hosting.UserGpgKey("gpg", { armoredPublicKey: gpg, name: config.get("gpgKeyName") ?? "signing" })
  : undefined;
export const gpgKeyId = gpgKey?.keyId;
export const gpgEmails = gpgKey?.emails;

export const sshKeyId = ssh
  ? new hosting.UserSshKey("ssh", { key: ssh, title: config.get("sshKeyTitle") ?? "laptop" }).keyId
  : undefined;

export const signingKeyId = signing
  ? new hosting.UserSshSigningKey("signing", {
      key: signing,
      title: config.get("signingKeyTitle") ?? "commit signing",
      // To adopt a signing key already on the account instead: importId: <its id>,
    }).keyId
  : undefined;
