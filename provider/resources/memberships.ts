/**
 * Organisation memberships: OrgMembership (`/orgs/{org}/memberships/{username}`).
 *
 * Creating one invites a person who is not yet a member (the membership is `pending` until they
 * accept) or sets the role of someone who already is (adoption by construction: the identity is
 * the pair of names). Refresh reads the membership: a cancelled or declined invitation, or a person
 * who left, reads as gone, so the next `up` invites them again. A role changed outside Pulumi is
 * drift; the invitation being accepted (`pending` to `active`) is not: `state` is an output only.
 *
 * Destroying is the user's choice (`onDestroy`): remove the person (the platform's only behaviour
 * in today's tools), downgrade them to a plain member, or retain them as they are. An organisation
 * must keep an admin: demoting or removing the last one is refused before any write.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isNotFound, notFoundError, refusedError } from "../client/errors";
import type { HostingClient } from "../client/http";
import { ROUTES } from "../client/routes";
import {
  type ApiOrgMembership,
  ORG_MEMBERSHIP_ROLES,
  type ORG_MEMBERSHIP_STATES,
  type OrgMembershipRole,
} from "../client/schemas";
import { fields } from "../internal/check";
import { client } from "../internal/context";
import { type FieldRules, lowerCased, sameValue } from "../internal/diff";
import { joinId, splitId } from "../internal/ids";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../internal/lifecycle";
import { compact } from "../internal/outputs";
import { HostingResource, type OutputsOf } from "../internal/resource";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

/** What destroying the resource does to the person. */
export const ORG_MEMBERSHIP_ON_DESTROY = ["remove", "downgrade", "retain"] as const;
export type OrgMembershipOnDestroy = (typeof ORG_MEMBERSHIP_ON_DESTROY)[number];
export type OrgMembershipState = (typeof ORG_MEMBERSHIP_STATES)[number];
export type { OrgMembershipRole };

export interface OrgMembershipArgs {
  /** The organisation. A change replaces the membership (the old one is destroyed per `onDestroy`). */
  org: pulumi.Input<string>;
  /**
   * The person's login. A non-member is invited (the membership stays `pending` until they accept);
   * an existing member is adopted and given `role`. A change replaces the membership.
   */
  username: pulumi.Input<string>;
  /**
   * `"member"` or `"admin"` (an organisation owner). Default `"member"`. Updates in place; a role
   * changed outside Pulumi shows as drift. Demoting the organisation's last admin is refused.
   */
  role?: pulumi.Input<OrgMembershipRole>;
  /**
   * What destroying the resource does: `"remove"` (default) removes the person from the
   * organisation and all its teams, or cancels their pending invitation; `"downgrade"` makes them a
   * plain member and stops managing them; `"retain"` stops managing them and changes nothing.
   * Changing it updates state only (no API call); run `pulumi up` before a destroy that relies on
   * the new value. Removing the organisation's last admin is refused.
   */
  onDestroy?: pulumi.Input<OrgMembershipOnDestroy>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check)
// ---------------------------------------------------------------------------------------------

export const orgMembershipInputs = z.object({
  org: fields.name("org"),
  username: fields.name("username"),
  role: z
    .enum(ORG_MEMBERSHIP_ROLES, { error: `role must be one of ${ORG_MEMBERSHIP_ROLES.join(", ")}` })
    .default("member"),
  onDestroy: z
    .enum(ORG_MEMBERSHIP_ON_DESTROY, {
      error: `onDestroy must be one of ${ORG_MEMBERSHIP_ON_DESTROY.join(", ")}`,
    })
    .default("remove"),
});

export type OrgMembershipInputs = z.infer<typeof orgMembershipInputs>;
export type OrgMembershipOutputs = OrgMembershipInputs & {
  /** `pending` until the person accepts the invitation, then `active`. */
  state: OrgMembershipState;
};

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** Outputs from the server's membership; `onDestroy` and the names' spelling come from the program. */
function orgMembershipOutputs(
  who: Pick<OrgMembershipInputs, "org" | "username" | "onDestroy">,
  api: ApiOrgMembership,
): OrgMembershipOutputs {
  return compact({
    org: who.org,
    username: who.username,
    role: api.role as OrgMembershipRole,
    onDestroy: who.onDestroy,
    state: api.state as OrgMembershipState,
  });
}

/** Names are case-insensitive on the platform: `Mona` and `mona` are one membership. */
const comparable = lowerCased<OrgMembershipInputs>("org", "username");

// ---------------------------------------------------------------------------------------------
// Replace-on-change (`state` is an output only: it is never compared)
// ---------------------------------------------------------------------------------------------

export const orgMembershipRules: FieldRules<OrgMembershipInputs> = {
  org: { replace: true },
  username: { replace: true },
  role: {},
  onDestroy: {},
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = "OrgMembership";
const ID_FORMAT = ["org", "username"] as const;

const membershipApi = (c: HostingClient) => ({
  get: async (org: string, username: string) =>
    (await c.get(ROUTES.members.getMembership, { org, username })).data,
  /** PUT invites a non-member, re-roles a member or a pending invitation; repeating it is harmless. */
  set: async (org: string, username: string, role: OrgMembershipRole) => {
    const route = ROUTES.members.setMembership;
    try {
      return (await c.put(route, { org, username }, { role })).data;
    } catch (e) {
      if (!isNotFound(e)) throw e;
      throw notFoundError({
        method: "PUT",
        path: route.path({ org, username }),
        what: `${KIND} ${org}/${username}`,
        causes: [
          `there is no user ${username}, or no organisation ${org}`,
          `the token's user is not an owner of ${org}`,
          "the token lacks the classic scope admin:org (or the fine-grained permission members write)",
        ],
      });
    }
  },
  /** The logins of the organisation's admins (owners). */
  admins: async (org: string) => {
    const route = ROUTES.members.list;
    try {
      const admins = await c.paginate(route, { org }, { query: { role: "admin" } });
      return admins.map((u) => u.login);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      throw notFoundError({
        method: "GET",
        path: route.path({ org }),
        what: `${KIND} of ${org}`,
        causes: [`there is no organisation ${org}`, `the token's user cannot see ${org}`],
      });
    }
  },
});

/**
 * The last-admin guard: an organisation must keep an admin. Before demoting or removing someone it
 * lists the admins and refuses, before any write, when that person is the only one.
 */
async function refuseLastAdmin(
  c: HostingClient,
  org: string,
  username: string,
  action: "demote" | "remove",
): Promise<void> {
  const admins = await membershipApi(c).admins(org);
  const key = username.toLowerCase();
  const isAdmin = admins.some((a) => a.toLowerCase() === key);
  if (!isAdmin || admins.length > 1) return;
  throw refusedError(
    `${KIND} ${org}/${username}: refusing to ${action} ${username}, the last admin of ${org}; an organisation must keep at least one admin`,
    action === "demote"
      ? `Make another member of ${org} an admin first`
      : `Make another member of ${org} an admin first, or set onDestroy to "retain" and run pulumi up before destroying`,
  );
}

export const orgMembershipProvider = defineProvider<typeof orgMembershipInputs, OrgMembershipOutputs>(KIND, {
  idFormat: ID_FORMAT,
  inputs: orgMembershipInputs,
  rules: orgMembershipRules,
  comparable,

  async create(inputs) {
    const c = client();
    const id = joinId(inputs.org, inputs.username);
    // Adoption changes nothing it need not: a membership (or invitation) that already has the
    // role is taken as it is, without a write.
    const existing = await readOrGone(() => membershipApi(c).get(inputs.org, inputs.username));
    if (existing?.role === inputs.role) return { id, outs: orgMembershipOutputs(inputs, existing) };
    // Creating with role member demotes a person who is already an admin: the guard applies.
    if (inputs.role === "member") await refuseLastAdmin(c, inputs.org, inputs.username, "demote");
    const membership = await membershipApi(c).set(inputs.org, inputs.username, inputs.role);
    return { id, outs: orgMembershipOutputs(inputs, membership) };
  },

  async read(id, props) {
    const [org = "", username = ""] = splitId(id, ID_FORMAT, KIND);
    // No membership and no invitation: cancelled, declined, or the person left. Refresh drops it.
    const membership = await readOrGone(() => membershipApi(client()).get(org, username));
    if (!membership) return {};
    const outs = orgMembershipOutputs(
      {
        org: props?.org ?? org,
        username: props?.username ?? username,
        onDestroy: props?.onDestroy ?? "remove",
      },
      membership,
    );
    // state is not in the rules, so it is an output only and never appears as an input.
    return { id, props: outs };
  },

  async update(_id, olds, news) {
    if (sameValue(olds.role, news.role)) {
      // Only onDestroy changed: it lives in state, so nothing is sent.
      return { outs: { ...news, state: olds.state } };
    }
    const c = client();
    if (news.role === "member") await refuseLastAdmin(c, news.org, news.username, "demote");
    const membership = await membershipApi(c).set(news.org, news.username, news.role);
    return { outs: orgMembershipOutputs(news, membership) };
  },

  async delete(id, props) {
    const [org = "", username = ""] = splitId(id, ID_FORMAT, KIND);
    const c = client();
    const mode = props?.onDestroy ?? "remove";
    if (mode === "retain") return;
    if (mode === "downgrade") {
      // Gone already: a PUT now would invite them again.
      const current = await readOrGone(() => membershipApi(c).get(org, username));
      if (current?.role !== "admin") return;
      await refuseLastAdmin(c, org, username, "demote");
      await membershipApi(c).set(org, username, "member");
      return;
    }
    try {
      await refuseLastAdmin(c, org, username, "remove");
    } catch (e) {
      if (isNotFound(e)) return; // the organisation is gone, and the membership with it
      throw e;
    }
    // Cancels a pending invitation, or removes an active member from the organisation.
    await deleteIgnoringGone(() => c.delete(ROUTES.members.removeMembership, { org, username }));
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

const OUTPUTS = ["org", "username", "role", "onDestroy", "state"] as const;

/**
 * A person's membership of an organisation (`/orgs/{org}/memberships/{username}`). Needs the token
 * of an organisation owner: classic scope `admin:org`, or the fine-grained permission `members`
 * write. Names compare case-insensitively. Example: `examples/memberships/`.
 */
export class OrgMembership extends HostingResource {
  constructor(name: string, args: OrgMembershipArgs, opts?: pulumi.CustomResourceOptions) {
    super(orgMembershipProvider, name, args, OUTPUTS, opts);
  }
}

export interface OrgMembership extends OutputsOf<OrgMembershipOutputs> {}
