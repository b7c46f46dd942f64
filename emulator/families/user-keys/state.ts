/** The user key family's state: users' GPG keys, SSH authentication keys and SSH signing keys. */
import { rows, type StateOf } from "../../core/state";
import type { StoredGpgKey, StoredSshKey } from "./keys";

export const userKeyState = {
  gpgKeys: rows<StoredGpgKey>(undefined, { since: 3 }),
  sshKeys: rows<StoredSshKey>(undefined, { since: 3 }),
  sshSigningKeys: rows<StoredSshKey>(undefined, { since: 3 }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof userKeyState> {}
}
