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
 * must keep an admin: demoting the last one is refused before any write; on destroy, removing or
 * downgrading the last one is skipped with a warning (one organisation's deletes are decided one
 * after another), and the token's own membership is removed only when the program says so.
 */
import { z } from "zod";
import {
  type ApiOrgMembership,
  membershipsRoutes,
  ORG_MEMBERSHIP_ROLES,
  ORG_MEMBERSHIP_STATES,
  type OrgMembershipRole,
} from "../../../api/memberships";
import { metaRoutes } from "../../../api/meta";
import { isNotFound, notFoundError, refusedError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client, notice } from "../../internal/context";
import {
  type ArgsOf,
  declareKind,
  type Found,
  field,
  type OutputsOfKind,
  output,
} from "../../internal/declare";
import { lowerCased, sameValue } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, leftToDefault, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";

// ---------------------------------------------------------------------------------------------
// Declaration (`state` is an output only: it is never compared)
// ---------------------------------------------------------------------------------------------

/** What destroying the resource does to the person. */
export const ORG_MEMBERSHIP_ON_DESTROY = ["remove", "downgrade", "retain"] as const;
export type OrgMembershipOnDestroy = (typeof ORG_MEMBERSHIP_ON_DESTROY)[number];
export type OrgMembershipState = (typeof ORG_MEMBERSHIP_STATES)[number];
export type { OrgMembershipRole };

export const orgMembershipKind = declareKind({
  kind: "OrgMembership",
  description:
    "A person's membership of an organisation (`/orgs/{org}/memberships/{username}`). Needs the token of an organisation owner: classic scope `admin:org`, or the fine-grained permission `members` write. Names compare case-insensitively.",
  idFormat: ["org", "username"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description:
        "The organisation. A change replaces the membership (the old one is destroyed per `onDestroy`).",
      replace: true,
    }),
    username: field(fields.name("username"), {
      description:
        "The person's login. A non-member is invited (the membership stays `pending` until they accept); an existing member is adopted and given `role`. A change replaces the membership.",
      replace: true,
    }),
    role: field(
      z
        .enum(ORG_MEMBERSHIP_ROLES, { error: `role must be one of ${ORG_MEMBERSHIP_ROLES.join(", ")}` })
        .default("member"),
      {
        description:
          '`"member"` or `"admin"` (an organisation owner). Default `"member"`. Updates in place; a role changed outside Pulumi shows as drift. Demoting the organisation\'s last admin is refused.',
      },
    ),
    onDestroy: field(
      z
        .enum(ORG_MEMBERSHIP_ON_DESTROY, {
          error: `onDestroy must be one of ${ORG_MEMBERSHIP_ON_DESTROY.join(", ")}`,
        })
        .default("remove"),
      {
        description:
          'What destroying the resource does: `"remove"` (default) removes the person from the organisation and all its teams, or cancels their pending invitation; `"downgrade"` makes them a plain member and stops managing them; `"retain"` stops managing them and changes nothing. Changing it updates state only (no API call); run `pulumi up` before a destroy that relies on the new value. Destroy never removes or demotes the organisation\'s last admin (it warns and keeps them), nor the token\'s own user unless `"remove"` is written explicitly.',
      },
    ),
  }),
  outputs: z.object({
    state: output(
      z.enum(ORG_MEMBERSHIP_STATES),
      "`pending` until the person accepts the invitation, then `active`.",
    ),
  }),
  discovery: {
    scope: "org",
    what: ({ org }) => `memberships of ${org}`,
    names: ["{org|module}-member-{username}"],
    adopted: {
      args: { onDestroy: "retain" },
      comment:
        'A member before this stack: destroy and removal from code leave the membership (onDestroy: "retain").',
    },
    // The lists say everything (login and role), so no membership is read again.
    async list(c, { org = "" }): Promise<Found[]> {
      const found = await listMemberships(c, org);
      return found.map(({ username, role }) => ({
        id: orgMembershipKind.formatId({ org, username }),
        inputs: { org, username, role },
      }));
    },
  },
});

export type OrgMembershipArgs = ArgsOf<typeof orgMembershipKind.inputs>;
export type OrgMembershipInputs = z.infer<typeof orgMembershipKind.inputs>;
export type OrgMembershipOutputs = OutputsOfKind<typeof orgMembershipKind>;

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
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = orgMembershipKind.kind;

const membershipApi = (c: HostingClient) => ({
  get: async (org: string, username: string) =>
    (await c.get(membershipsRoutes.members.getMembership, { org, username })).data,
  /** PUT invites a non-member, re-roles a member or a pending invitation; repeating it is harmless. */
  set: async (org: string, username: string, role: OrgMembershipRole) => {
    const route = membershipsRoutes.members.setMembership;
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
    const route = membershipsRoutes.members.list;
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
  if (!(await isLastAdmin(c, org, username))) return;
  throw refusedError(
    `${KIND} ${org}/${username}: refusing to ${action} ${username}, the last admin of ${org}; an organisation must keep at least one admin`,
    action === "demote"
      ? `Make another member of ${org} an admin first`
      : `Make another member of ${org} an admin first, or set onDestroy to "retain" and run pulumi up before destroying`,
  );
}

/** Whether `username` is the only admin of `org`. */
async function isLastAdmin(c: HostingClient, org: string, username: string): Promise<boolean> {
  const admins = await membershipApi(c).admins(org);
  const key = username.toLowerCase();
  return admins.length === 1 && admins[0]?.toLowerCase() === key;
}

/** The token's own login, read once per client. */
const tokenUsers = new WeakMap<HostingClient, Promise<string | undefined>>();
async function isTokenUser(c: HostingClient, username: string): Promise<boolean> {
  let login = tokenUsers.get(c);
  if (login === undefined) {
    login = c
      .get(metaRoutes.meta.user, {})
      .then((r) => r.data.login)
      .catch(() => undefined); // an app token has no user of its own
    tokenUsers.set(c, login);
  }
  return (await login)?.toLowerCase() === username.toLowerCase();
}

/** Runs `work` after every earlier call for the same organisation has finished, in this process. */
const queues = new Map<string, Promise<unknown>>();
function oneAtATime<T>(org: string, work: () => Promise<T>): Promise<T> {
  const key = org.toLowerCase();
  const run = (queues.get(key) ?? Promise.resolve()).then(work, work);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

/**
 * Members (with their role) and pending invitations of an organisation, for `hosting-import`: the
 * admins and the plain members are listed apart, since the member list does not say the role.
 */
async function listMemberships(
  c: HostingClient,
  org: string,
): Promise<Array<{ username: string; role: OrgMembershipRole }>> {
  const members = membershipsRoutes.members.list;
  const [admins, plain, invitations] = await Promise.all([
    c.paginate(members, { org }, { query: { role: "admin" } }),
    c.paginate(members, { org }, { query: { role: "member" } }),
    c.paginate(membershipsRoutes.members.invitations, { org }),
  ]);
  return [
    ...admins.map((u) => ({ username: u.login, role: "admin" as const })),
    ...plain.map((u) => ({ username: u.login, role: "member" as const })),
    ...invitations
      .filter((i): i is { login: string; role: string } => i.login !== null)
      .map((i) => ({
        username: i.login,
        role: i.role === "admin" ? ("admin" as const) : ("member" as const),
      })),
  ];
}

export const orgMembershipProvider = defineProvider<typeof orgMembershipKind.inputs, OrgMembershipOutputs>(
  orgMembershipKind,
  {
    comparable,
    writtenMatters: ["onDestroy"],

    async create(inputs) {
      const c = client();
      const id = orgMembershipKind.formatId(inputs);
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
      const { org, username } = orgMembershipKind.parseId(id);
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
      const { org, username } = orgMembershipKind.parseId(id);
      const c = client();
      const mode = props?.onDestroy ?? "remove";
      if (mode === "retain") return;
      // The engine deletes in parallel: one organisation's demotions and removals are decided one
      // after another, each on the admins as they are then, so the last owner is always seen.
      await oneAtATime(org, async () => {
        if (mode === "remove" && leftToDefault(props, "onDestroy") && (await isTokenUser(c, username))) {
          notice(
            `${KIND} ${org}/${username}: kept ${username} in ${org}: it is the membership of the token's own user, which destroy removes only when the program sets onDestroy: "remove" explicitly`,
          );
          return;
        }
        const current = await readOrGone(() => membershipApi(c).get(org, username));
        if (current === undefined) return; // gone already: a PUT now would invite them again
        if (current.role === "admin" && (await isLastAdmin(c, org, username))) {
          notice(
            `${KIND} ${org}/${username}: kept ${username} as an admin of ${org}: the last admin of an organisation is never ${mode === "downgrade" ? "demoted" : "removed"} (the resource leaves the stack; the membership stays)`,
          );
          return;
        }
        if (mode === "downgrade") {
          if (current.role === "admin") await membershipApi(c).set(org, username, "member");
          return;
        }
        // Cancels a pending invitation, or removes an active member from the organisation.
        await deleteIgnoringGone(() =>
          c.delete(membershipsRoutes.members.removeMembership, { org, username }),
        );
      });
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/**
 * A person's membership of an organisation: see its declaration, `orgMembershipKind`. Example:
 * `examples/memberships/`.
 */
export class OrgMembership extends resourceClass<OrgMembershipArgs, OrgMembershipOutputs>(
  orgMembershipProvider,
) {}
