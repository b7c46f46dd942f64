/**
 * Each key is read from a file, as the tools that make them write it; without configuration, the
 * demo public keys beside this file (their private halves were never kept):
 *
 *   gpg --armor --export you@example.com > gpg.asc && pulumi config set gpgKeyFile gpg.asc
 *   pulumi config set sshKeyFile ~/.ssh/id_ed25519.pub
 *   pulumi config set signingKeyFile ~/.ssh/id_ed25519_signing.pub
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { declareUserKeys } from "./user-keys";

const config = new pulumi.Config();
const fileOf = (key: string, demo: string) => readFileSync(config.get(key) ?? join(__dirname, demo), "utf8");

export const userKeys = declareUserKeys({
  gpgKey: fileOf("gpgKeyFile", "demo-gpg.asc"),
  gpgKeyName: config.get("gpgKeyName") ?? "commit signing",
  sshKey: fileOf("sshKeyFile", "demo-ssh.pub"),
  sshKeyTitle: config.get("sshKeyTitle") ?? "laptop",
  signingKey: fileOf("signingKeyFile", "demo-signing.pub"),
  signingKeyTitle: config.get("signingKeyTitle") ?? "commit signing",
});
