/**
 * Organisation blocks: OrgBlock (`/orgs/{org}/blocks/{username}`). A block is a pair of names, so
 * it adopts by construction: PUT blocks the user, and blocking a user already blocked changes
 * nothing. Refresh asks whether the user is still blocked (204, or 404 when not): a block removed
 * outside Pulumi reads as gone, and the next `up` blocks the user again. The platform refuses to
 * block a member of the organisation, someone it has invited, or the caller; its message is shown.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isHostingApiError, isNotFound, notFoundError, validationError } from "../client/errors";
import type { HostingClient } from "../client/http";
import { ROUTES } from "../client/routes";
import { fields } from "../internal/check";
import { client } from "../internal/context";
import { type FieldRules, lowerCased } from "../internal/diff";
import { joinId, splitId } from "../internal/ids";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../internal/lifecycle";
import { HostingResource, type OutputsOf } from "../internal/resource";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

export interface OrgBlockArgs {
  /** The organisation. A change replaces the block (the user is unblocked in the old one). */
  org: pulumi.Input<string>;
  /**
   * The login of the user to block. Members of the organisation and invited users cannot be
   * blocked (remove the membership first). A change replaces the block.
   */
  username: pulumi.Input<string>;
}

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

export const orgBlockInputs = z.object({
  org: fields.name("org"),
  username: fields.name("username"),
});

export type OrgBlockInputs = z.infer<typeof orgBlockInputs>;
export type OrgBlockOutputs = OrgBlockInputs;

// ---------------------------------------------------------------------------------------------
// Replace-on-change (a block is its pair of names)
// ---------------------------------------------------------------------------------------------

export const orgBlockRules: FieldRules<OrgBlockInputs> = {
  org: { replace: true },
  username: { replace: true },
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = "OrgBlock";
const ID_FORMAT = ["org", "username"] as const;

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
  const path = ROUTES.orgBlocks.block.path({ org, username });
  try {
    await c.put(ROUTES.orgBlocks.block, { org, username });
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

export const orgBlockProvider = defineProvider<typeof orgBlockInputs, OrgBlockOutputs>(KIND, {
  idFormat: ID_FORMAT,
  inputs: orgBlockInputs,
  rules: orgBlockRules,
  comparable: lowerCased<OrgBlockInputs>("org", "username"),

  async create(inputs) {
    await block(client(), inputs.org, inputs.username);
    return { id: joinId(inputs.org, inputs.username), outs: { org: inputs.org, username: inputs.username } };
  },

  async read(id, props) {
    const [org = "", username = ""] = splitId(id, ID_FORMAT, KIND);
    // 204: blocked; 404: not blocked (unblocked outside Pulumi), or the user or organisation is gone.
    const blocked = await readOrGone(() => client().get(ROUTES.orgBlocks.check, { org, username }));
    if (!blocked) return {};
    return { id, props: { org: props?.org ?? org, username: props?.username ?? username } };
  },

  async update(_id, _olds, news) {
    // Both fields replace: only a respelling of a name (same block) gets here.
    return { outs: { org: news.org, username: news.username } };
  },

  async delete(id) {
    const [org = "", username = ""] = splitId(id, ID_FORMAT, KIND);
    await deleteIgnoringGone(() => client().delete(ROUTES.orgBlocks.unblock, { org, username }));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

const OUTPUTS = ["org", "username"] as const;

/**
 * A user blocked by an organisation (`/orgs/{org}/blocks/{username}`). Needs an organisation
 * owner's token: classic scope `admin:org`, or the fine-grained permission
 * `organization_user_blocking` write. Names compare case-insensitively. A block removed outside
 * Pulumi is drift. Example: `examples/organization/`.
 */
export class OrgBlock extends HostingResource {
  constructor(name: string, args: OrgBlockArgs, opts?: pulumi.CustomResourceOptions) {
    super(orgBlockProvider, name, args, OUTPUTS, opts);
  }
}

export interface OrgBlock extends OutputsOf<OrgBlockOutputs> {}
