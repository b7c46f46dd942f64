/**
 * Talking to the private registry routes: reads, and writes that carry the value sealed for the
 * organisation's current public key (`withSealedValue`: fetched once per organisation per process,
 * fetched again when the server says the key changed). The plaintext never leaves this module
 * other than sealed, and no error or log line carries it: requests are described by method and path.
 */

import {
  type ApiPrivateRegistry,
  type PrivateRegistryOidcField,
  privateRegistriesRoutes,
} from "../../../api/private-registries";
import { isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { collectionReads } from "../../internal/collection-reads";
import { withSealedValue } from "../../internal/sealed-box";

/** The body of a create or a full update, as the provider sends it (the sealed value travels apart). */
export interface ApiPrivateRegistryWrite extends Partial<Record<PrivateRegistryOidcField, string | null>> {
  registry_type: string;
  url: string;
  visibility: string;
  auth_type: string;
  username: string | null;
  replaces_base: boolean;
  selected_repository_ids?: number[];
}

const R = privateRegistriesRoutes.privateRegistries;
const registryPath = (org: string, secret_name: string) => R.get.path({ org, secret_name });

const listOf = (c: HostingClient, org: string) => c.paginate(R.list, { org });

/** Writes to an organisation's registries: lists of them from before a write are not used after it. */
const writing = <T>(c: HostingClient, org: string, run: () => Promise<T>) =>
  collectionReads.write(c, R.list.path({ org }), run);

export const registryApi = (c: HostingClient) => ({
  /** One registry; reads of several registries of an organisation in a run share its list. */
  get: (org: string, name: string) =>
    collectionReads.read(c, {
      collection: R.list.path({ org }),
      key: name,
      keyOf: (r: ApiPrivateRegistry) => r.name,
      list: () => listOf(c, org),
      single: async () => (await c.get(R.get, { org, secret_name: name })).data,
    }),

  list: (org: string) => listOf(c, org),

  /** POST; with a plaintext, it is sealed for the organisation's key first. */
  create: (org: string, body: ApiPrivateRegistryWrite, plaintext: string | undefined) =>
    sealedWrite(c, org, plaintext, async (sealed) => {
      try {
        return await writing(
          c,
          org,
          async () => (await c.post(R.create, { org }, { ...body, ...sealed })).data,
        );
      } catch (e) {
        throw isNotFound(e)
          ? notFoundError({
              method: "POST",
              path: R.create.path({ org }),
              what: `PrivateRegistry of ${org}`,
              causes: [
                `there is no organisation ${org}`,
                `the token's user is not an owner of ${org}`,
                "the token lacks the classic scope admin:org (or the fine-grained permission organization_private_registries write)",
              ],
            })
          : e;
      }
    }),

  /**
   * PATCH (204, no body), sending the whole desired state, so repeating it after a failure is
   * safe; with a plaintext, it is sealed for the organisation's key first.
   */
  update: (org: string, name: string, body: ApiPrivateRegistryWrite, plaintext: string | undefined) =>
    sealedWrite(c, org, plaintext, async (sealed) => {
      await writing(c, org, () =>
        c.patch(R.update, { org, secret_name: name }, { ...body, ...sealed }, { idempotent: true }),
      );
    }),

  delete: (org: string, name: string) =>
    writing(c, org, () => c.delete(R.delete, { org, secret_name: name })),
});

/** Runs the write with the value sealed, or as it is when there is no value (OIDC). */
function sealedWrite<T>(
  c: HostingClient,
  org: string,
  plaintext: string | undefined,
  write: (sealed: { encrypted_value?: string; key_id?: string }) => Promise<T>,
): Promise<T> {
  return plaintext === undefined ? write({}) : withSealedValue(c, R.publicKey, { org }, plaintext, write);
}

/** Reads the registry an `importId` names, or fails saying what to check. */
export async function readImport(c: HostingClient, org: string, name: string): Promise<ApiPrivateRegistry> {
  try {
    return await registryApi(c).get(org, name);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw notFoundError({
      method: "GET",
      path: registryPath(org, name),
      what: `importId ${name}`,
      causes: [
        `${org} has no private registry of that name (names look like NPM_REGISTRY_SECRET, as the organisation's settings list them)`,
        `the token's user is not an owner of ${org}`,
      ],
    });
  }
}
