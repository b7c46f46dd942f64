/**
 * The Actions family's state: secrets and variables of organisations, repositories and
 * environments, and each scope's key pair. A record names its scope by ids, not names
 * (`scopeKey`): an organisation or repository renamed keeps its secrets, and a repository made
 * again under an old name does not find the secrets of the one deleted.
 */
import { map, rows, type StateOf } from "../../core/state";
import type { StoredActionsSecret, StoredActionsVariable } from "./seed";

export type { ScopeKey, StoredActionsSecret, StoredActionsVariable } from "./seed";

/** A scope's Curve25519 key pair for sealed values (raw keys, base64). */
export interface StoredActionsKey {
  keyId: string;
  publicKey: string;
  privateKey: string;
}

export const actionsState = {
  actionsSecrets: rows<StoredActionsSecret>((fixture) => structuredClone(fixture.actionsSecrets ?? [])),
  actionsVariables: rows<StoredActionsVariable>((fixture) => structuredClone(fixture.actionsVariables ?? [])),
  /** Scope key -> its current key pair, made on first use. */
  actionsKeys: map<StoredActionsKey>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof actionsState> {}
}
