/**
 * OrgSettings (`PATCH /orgs/{org}`, read through `GET /orgs/{org}`): an organisation's profile and
 * member policies. Only the settings the program declares are managed (written, read back,
 * compared): the organisation's other settings are someone else's, and a setting removed from the
 * program is simply left as it is. The organisation exists already, so the resource adopts it by
 * construction (its id is the login) and writes only what differs; destroy leaves the organisation
 * as it is, with no request.
 *
 * The platform shows these settings to the organisation's owners only (a classic token also needs
 * `admin:org`): read fails with what to do rather than take their absence for a change.
 */
import { z } from "zod";
import { type ApiOrganization, DEFAULT_REPOSITORY_PERMISSIONS, metaRoutes } from "../../../api/meta";
import { orgConfigRoutes } from "../../../api/org-config";
import { configurationError, isNotFound, notFoundError } from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, field, type OutputsOfKind } from "../../internal/declare";
import { sameValue } from "../../internal/diff";
import { defineProvider } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";
import { wireMapping } from "../../internal/wire";

// ---------------------------------------------------------------------------------------------
// Declaration
// ---------------------------------------------------------------------------------------------

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A text setting `name`, which the API calls `wire`. */
const text = (
  name: string,
  wire: string,
  description: string,
  check?: { test: (v: string) => boolean; allowed: string },
) =>
  field(
    z
      .string({ error: `${name} must be a string` })
      .refine((v) => v === "" || check === undefined || check.test(v), {
        error: `${name} must be ${check?.allowed ?? "a string"}, or "" to clear it`,
      })
      .optional(),
    { description: `${description} \`""\` clears it. Managed only when set.`, wire: { path: wire } },
  );

const email = { test: (v: string) => EMAIL.test(v), allowed: 'an email address such as "org@example.com"' };
const httpUrl = {
  test: (v: string) => /^https?:\/\/[^\s/]+/.test(v),
  allowed: 'an absolute http(s) URL such as "https://example.com"',
};

/** A member policy, which the API calls `wire`. */
const policy = (wire: string, description: string) =>
  field(z.boolean({ error: "must be true or false" }).optional(), {
    description: `${description} Managed only when set.`,
    wire: { path: wire },
  });

export const orgSettingsKind = declareKind({
  kind: "OrgSettings",
  description:
    "An organisation's profile and member policies (`PATCH /orgs/{org}`): only the settings the program declares are managed, and destroy leaves the organisation as it is. Needs an owner's token: classic scope `admin:org`, or the fine-grained organisation permission `organization_administration` write.",
  idFormat: ["org"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description:
        "The organisation. A change moves the resource to another organisation (the old one is left as it is).",
      replace: true,
    }),
    billingEmail: text(
      "billingEmail",
      "billing_email",
      "Where the organisation's bills go (not shown publicly).",
      email,
    ),
    company: text("company", "company", "The company name on the profile."),
    email: text("email", "email", "The publicly shown email address.", email),
    location: text("location", "location", "The location on the profile."),
    description: field(
      z
        .string({ error: "description must be a string" })
        .max(160, "description must be at most 160 characters")
        .optional(),
      {
        description:
          'The organisation\'s description (at most 160 characters). `""` clears it. Managed only when set.',
        wire: { path: "description" },
      },
    ),
    blog: text("blog", "blog", "The website on the profile.", httpUrl),
    defaultRepositoryPermission: field(
      z
        .enum(DEFAULT_REPOSITORY_PERMISSIONS, {
          error: `defaultRepositoryPermission must be one of ${DEFAULT_REPOSITORY_PERMISSIONS.join(", ")}`,
        })
        .optional(),
      {
        description:
          'What members may do in every repository of the organisation: `"read"` (the platform\'s default), `"write"`, `"admin"` or `"none"`. Managed only when set.',
        wire: { path: "default_repository_permission" },
      },
    ),
    membersCanCreateRepositories: policy(
      "members_can_create_repositories",
      "Whether members (not only owners) may create repositories.",
    ),
    membersCanCreatePublicRepositories: policy(
      "members_can_create_public_repositories",
      "Whether members may create public repositories.",
    ),
    membersCanCreatePrivateRepositories: policy(
      "members_can_create_private_repositories",
      "Whether members may create private repositories.",
    ),
    membersCanCreateInternalRepositories: policy(
      "members_can_create_internal_repositories",
      "Whether members may create internal repositories (organisations of an enterprise only).",
    ),
    membersCanForkPrivateRepositories: policy(
      "members_can_fork_private_repositories",
      "Whether members may fork the organisation's private repositories.",
    ),
    webCommitSignoffRequired: policy(
      "web_commit_signoff_required",
      "Whether commits made on the web must be signed off.",
    ),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "org",
    what: ({ org }) => `settings of ${org}`,
    names: ["{org|module}-settings"],
    adopted: {
      args: {},
      comment:
        "The organisation's settings as they are: destroy and removal from code leave them as they are.",
    },
    async list(_c, { org = "" }) {
      return [{ id: org }];
    },
  },
});

export type OrgSettingsArgs = ArgsOf<typeof orgSettingsKind.inputs>;
export type OrgSettingsInputs = z.infer<typeof orgSettingsKind.inputs>;
export type OrgSettingsOutputs = OutputsOfKind<typeof orgSettingsKind>;

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/**
 * Every setting, from the wire path its field declares. Only the declared settings are managed:
 * outputs and writes pick them from what the mapping reads and writes.
 */
const wire = wireMapping<OrgSettingsInputs>(orgSettingsKind.inputs, orgSettingsKind.rules);
type SettingKey = Exclude<keyof OrgSettingsInputs, "org">;
const SETTINGS = Object.keys(orgSettingsKind.inputs.shape).filter((k) => k !== "org") as SettingKey[];
const TEXTS: ReadonlySet<SettingKey> = new Set([
  "billingEmail",
  "company",
  "email",
  "location",
  "description",
  "blog",
]);

/** The settings the values declare (or state records: a text the platform keeps as none is null). */
const declared = (values: object): SettingKey[] =>
  SETTINGS.filter((k) => (values as Record<string, unknown>)[k] !== undefined);

/**
 * The outputs for `managed` settings from the organisation the API answers. A text it does not
 * show is unset: null where state manages it, left out where the settings are being discovered.
 */
function orgSettingsOutputs(
  org: string,
  api: ApiOrganization,
  managed: readonly SettingKey[],
  discovering = false,
) {
  const out: Record<string, unknown> = { org };
  const settings: Partial<OrgSettingsInputs> = wire.fromWire(api);
  for (const key of managed) {
    const value = settings[key];
    if (value !== undefined && value !== null) out[key] = value === "" && TEXTS.has(key) ? null : value;
    else if (TEXTS.has(key) && !discovering) out[key] = null;
  }
  return out as OrgSettingsOutputs;
}

/** Settings as the platform means them: an empty text is no text; the login is case-insensitive. */
function comparable(values: object): object {
  const out: Record<string, unknown> = { ...values };
  for (const key of TEXTS) if (out[key] === "") out[key] = undefined;
  if (typeof out.org === "string") out.org = out.org.toLowerCase();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = orgSettingsKind.kind;

/** The organisation with its settings, or a clear error when the token may not see them. */
async function readSettings(c: HostingClient, org: string): Promise<ApiOrganization | undefined> {
  let api: ApiOrganization;
  try {
    api = (await c.get(metaRoutes.meta.org, { org })).data;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
  // The member policies are shown to owners only: their absence means the token cannot see them.
  if (api.default_repository_permission === undefined) {
    throw configurationError(
      `${KIND} ${org}: the token cannot see the organisation's settings (GET /orgs/${org} leaves them out)`,
      `Use the token of an owner of ${org}, with the classic scope admin:org (or the fine-grained permission organization_administration)`,
    );
  }
  return api;
}

/** Sends the declared settings that differ from `live` (all of them when `live` is unknown). */
async function write(
  c: HostingClient,
  org: string,
  wanted: OrgSettingsInputs,
  live: Record<string, unknown> | undefined,
): Promise<ApiOrganization | undefined> {
  const want = comparable(wanted) as Record<string, unknown>;
  const have = live === undefined ? undefined : (comparable(live) as Record<string, unknown>);
  const changed = declared(wanted).filter((key) => have === undefined || !sameValue(have[key], want[key]));
  if (changed.length === 0) return undefined;
  const body = wire.toWire(Object.fromEntries(changed.map((key) => [key, wanted[key]])));
  return (await c.patch(orgConfigRoutes.orgSettings.update, { org }, body, { idempotent: true })).data;
}

const orgGone = (org: string) =>
  notFoundError({
    method: "GET",
    path: metaRoutes.meta.org.path({ org }),
    what: `${KIND} ${org}`,
    causes: [`there is no organisation ${org}`, `the token's user cannot see ${org}`],
  });

export const orgSettingsProvider = defineProvider<typeof orgSettingsKind.inputs, OrgSettingsOutputs>(
  orgSettingsKind,
  {
    comparable,

    async create(inputs) {
      const c = client();
      // The organisation exists: it is adopted, and only what differs is written.
      const live = await readSettings(c, inputs.org);
      if (!live) throw orgGone(inputs.org);
      const known = orgSettingsOutputs(inputs.org, live, declared(inputs));
      const answer = (await write(c, inputs.org, inputs, known)) ?? live;
      return { id: inputs.org, outs: orgSettingsOutputs(inputs.org, answer, declared(inputs)) };
    },

    async read(id, props) {
      const { org } = orgSettingsKind.parseId(id);
      const live = await readSettings(client(), props?.org ?? org);
      if (!live) return {};
      // Recorded by a create: the declared settings. Otherwise (an import), every one.
      const discovering = props?.org === undefined;
      const managed = discovering ? SETTINGS : declared(props);
      return { id, props: orgSettingsOutputs(props?.org ?? org, live, managed, discovering) };
    },

    async update(_id, olds, news) {
      const c = client();
      const answer = await write(c, news.org, news, olds as Record<string, unknown>);
      if (!answer) return { outs: { ...news } };
      return { outs: orgSettingsOutputs(news.org, answer, declared(news)) };
    },

    async delete() {
      // The organisation and its settings stay as they are: destroy stops managing them, nothing more.
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** An organisation's profile and member policies: see its declaration, `orgSettingsKind`. Example: `examples/org-config/`. */
export class OrgSettings extends resourceClass<OrgSettingsArgs, OrgSettingsOutputs>(orgSettingsProvider) {}
