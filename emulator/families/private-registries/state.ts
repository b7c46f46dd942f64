/** The private registry family's state: registries, and each organisation's key pair. */
import type {
  PrivateRegistryAuthType,
  PrivateRegistryOidcField,
  PrivateRegistryType,
  PrivateRegistryVisibility,
} from "../../../api";
import { map, rows, type StateOf } from "../../core/state";

export interface StoredPrivateRegistry {
  /** The organisation's login. */
  org: string;
  /** The secret name, derived from the registry type at creation; the path id. */
  name: string;
  registryType: PrivateRegistryType;
  url: string;
  username: string | null;
  replacesBase: boolean;
  visibility: PrivateRegistryVisibility;
  selectedRepositoryIds: number[];
  authType: PrivateRegistryAuthType;
  /** OIDC settings of the auth type, by wire name. */
  oidc: Partial<Record<PrivateRegistryOidcField, string>>;
  /** The plaintext the server opened (null for OIDC); never returned by the API, read by tests. */
  value: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An organisation's Curve25519 key pair for private registry values (raw keys, base64). */
export interface StoredRegistryKey {
  keyId: string;
  publicKey: string;
  privateKey: string;
}

export const privateRegistryState = {
  privateRegistries: rows<StoredPrivateRegistry>(),
  /** Organisation login (lower case) -> its current registry key pair, made on first use. */
  registryKeys: map<StoredRegistryKey>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof privateRegistryState> {}
}
