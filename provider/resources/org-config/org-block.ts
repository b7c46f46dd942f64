/**
 * Organisation blocks: OrgBlock (`/orgs/{org}/blocks/{username}`). A block is a pair of names, so
 * it adopts by construction: PUT blocks the user, and blocking a user already blocked changes
 * nothing. Refresh asks whether the user is still blocked (204, or 404 when not): a block removed
 * outside Pulumi reads as gone, and the next `up` blocks the user again. The platform refuses to
 * block a member of the organisation, someone it has invited, or the caller; its message is shown.
 */
import { z } from "zod";
import { orgConfigRoutes } from "../../../api/org-config";
import { isHostingApiError, isNotFound, notFoundError, validationError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";

// ---------------------------------------------------------------------------------------------
// Declaration (a block is its pair of names: both replace)
// ---------------------------------------------------------------------------------------------

export const orgBlockKind = declareKind({
  kind: "OrgBlock",
  description:
    "A user blocked by an organisation (`/orgs/{org}/blocks/{username}`). Needs an organisation owner's token: classic scope `admin:org`, or the fine-grained permission `organization_user_blocking` write. Names compare case-insensitively. A block removed outside Pulumi is drift.",
  idFormat: ["org", "username"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the block (the user is unblocked in the old one).",
      replace: true,
    }),
    username: field(fields.name("username"), {
      description:
        "The login of the user to block. Members of the organisation and invited users cannot be blocked (remove the membership first). A change replaces the block.",
      replace: true,
    }),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "org",
    what: ({ org }) => `blocked users of ${org}`,
    names: ["{org|module}-block-{username}"],
    async list(c, { org = "" }): Promise<Found[]> {
      // The list is the read: a block is its pair of names, so no read per block.
      const users = await c.paginate(orgConfigRoutes.orgBlocks.list, { org });
      return users.map((user) => ({
        id: orgBlockKind.formatId({ org, username: user.login }),
        inputs: { org, username: user.login },
      }));
    },
  },
});

export type OrgBlockArgs = ArgsOf<typeof orgBlockKind.inputs>;
export type OrgBlockInputs = z.infer<typeof orgBlockKind.inputs>;
export type OrgBlockOutputs = OutputsOfKind<typeof orgBlockKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = orgBlockKind.kind;

const notFound = (method: string, path: string, org: string, username: string) =>
  notFoundError({
    method,
    path,
    what: `${KIND} ${org}/${username}`,
    causes: [
      `there is no user ${username}, or no organisation ${org}`,
      `the token's user is not an owner of ${org}`,
      "the token lacks the classic scope admin:org (or the fine-grained permission organization_user_blocking write)",
    ],
  });

/** PUT blocks the user; it is idempotent, so an ambiguous failure is simply sent again. */
async function block(c: HostingClient, org: string, username: string): Promise<void> {
  const path = orgConfigRoutes.orgBlocks.block.path({ org, username });
  try {
    await c.put(orgConfigRoutes.orgBlocks.block, { org, username });
  } catch (e) {
    if (isNotFound(e)) throw notFound("PUT", path, org, username);
    if (isHostingApiError(e) && e.status === 422) {
      const reason = e.errors.map((d) => d.message).find((m) => m !== undefined) ?? e.apiMessage ?? e.message;
      throw validationError(
        { method: "PUT", path },
        `${KIND} ${org}/${username}: ${org} cannot block ${username}: ${reason}`,
        `A member must be removed from ${org} (and a pending invitation cancelled) before they can be blocked`,
      );
    }
    throw e;
  }
}

export const orgBlockProvider = defineProvider<typeof orgBlockKind.inputs, OrgBlockOutputs>(orgBlockKind, {
  comparable: lowerCased<OrgBlockInputs>("org", "username"),

  async create(inputs) {
    const c = client();
    // Adoption writes only what differs: a user already blocked is taken as is, with no PUT.
    const { org, username } = inputs;
    const blocked = await readOrGone(() => c.get(orgConfigRoutes.orgBlocks.check, { org, username }));
    if (!blocked) await block(c, org, username);
    return {
      id: orgBlockKind.formatId(inputs),
      outs: { org: inputs.org, username: inputs.username },
    };
  },

  async read(id, props) {
    const { org, username } = orgBlockKind.parseId(id);
    // 204: blocked; 404: not blocked (unblocked outside Pulumi), or the user or organisation is gone.
    const blocked = await readOrGone(() => client().get(orgConfigRoutes.orgBlocks.check, { org, username }));
    if (!blocked) return {};
    return { id, props: { org: props?.org ?? org, username: props?.username ?? username } };
  },

  async update(_id, _olds, news) {
    // Both fields replace: only a respelling of a name (same block) gets here.
    return { outs: { org: news.org, username: news.username } };
  },

  async delete(id) {
    const { org, username } = orgBlockKind.parseId(id);
    await deleteIgnoringGone(() => client().delete(orgConfigRoutes.orgBlocks.unblock, { org, username }));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** A user blocked by an organisation: see its declaration, `orgBlockKind`. Example: `examples/organizations/`. */
export class OrgBlock extends resourceClass<OrgBlockArgs, OrgBlockOutputs>(orgBlockProvider) {}
