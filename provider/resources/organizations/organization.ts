/**
 * Organization: an organisation of the installation, created and renamed through site
 * administration (`POST /admin/organizations`, `PATCH /admin/organizations/{org}`), read with
 * `GET /orgs/{org}`. Only the classic token of a site administrator may use the administration
 * routes; the API answers 404 to anyone else, which is never taken for a missing organisation.
 *
 * - `login` updates in place: the platform renames as a queued job after its 202, so update waits,
 *   polling `GET /orgs/{new login}` with backoff until it answers with this organisation, for at
 *   most `renameTimeoutSeconds`. A wait that runs out fails naming the pending rename; the next
 *   `up` finds the job still pending (or done) and waits again, without queuing a second rename.
 * - `admin` and `profileName` are used only at creation: the API can change neither afterwards and
 *   does not show them, so a change to either is refused at preview (check) with what to do instead.
 * - The API cannot delete an organisation: destroy stops managing it, leaves it in place, and says
 *   so in a message of the run.
 * - `importId` adopts an existing organisation by its login (and renames it when `login` differs).
 * - The id is the organisation's numeric id, which a rename keeps. An organisation renamed outside
 *   Pulumi reads as gone (the API finds organisations by login only).
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { type ApiOrganization, metaRoutes } from "../../../api/meta";
import { organizationsRoutes } from "../../../api/organizations";
import {
  configurationError,
  isAmbiguous,
  isHostingApiError,
  isNotFound,
  notAllowedError,
  notFoundError,
  stillPendingError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { fields } from "../../internal/check";
import { client, notice } from "../../internal/context";
import { createWithoutDuplicates, PartialCreateError } from "../../internal/creates";
import { type ArgsOf, declareKind, field, type OutputsOfKind, output } from "../../internal/declare";
import { defineProvider, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";

// ---------------------------------------------------------------------------------------------
// Declaration (nothing replaces: there is no delete)
// ---------------------------------------------------------------------------------------------

/** The platform's rule for logins: letters, digits and single hyphens inside, at most 39. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const LOGIN_RULE =
  "letters, digits and single hyphens, not at the start or end, at most 39 characters (such as acme-platform)";

const login = (label: string) =>
  z.string({ error: `${label} is required: ${LOGIN_RULE}` }).refine((v) => LOGIN.test(v), {
    error: (iss) => `${label} must be ${LOGIN_RULE}; got ${JSON.stringify(iss.input)}`,
  });

export const DEFAULT_RENAME_TIMEOUT_SECONDS = 120;
const MAX_RENAME_TIMEOUT_SECONDS = 3600;

export const organizationKind = declareKind({
  kind: "Organization",
  description:
    "An organisation of the installation (`POST /admin/organizations`, `PATCH /admin/organizations/{org}`, read with `GET /orgs/{org}`). Needs the **classic token of a site administrator**. A new `login` renames the organisation in place and waits for the rename job; `admin` and `profileName` are used only at creation. The API has no delete: destroy leaves the organisation in place and says so.",
  idFormat: ["orgId"],
  importKey: "login",
  inputs: z.object({
    login: field(login("login"), {
      description:
        "The organisation's login (its name in URLs). Updates in place: the platform renames it with a queued job, and `pulumi up` waits until the new name answers (see `renameTimeoutSeconds`).",
    }),
    admin: field(fields.name("admin").optional(), {
      description:
        "The login of the user who manages the new organisation (made its owner). Required unless `importId` is set. Used only at creation: a later change is refused (add an `OrgMembership` with role `admin` to make someone else an owner).",
      createOnly: true,
      refusedAfterCreate: true,
    }),
    profileName: field(
      z
        .string({ error: "profileName must be a string" })
        .min(1, "profileName must not be empty; omit it instead")
        .optional(),
      {
        description: "The organisation's display name. Used only at creation: a later change is refused.",
        createOnly: true,
        refusedAfterCreate: true,
      },
    ),
    renameTimeoutSeconds: field(
      z
        .number({ error: "renameTimeoutSeconds must be a number of seconds" })
        .int("renameTimeoutSeconds must be a whole number of seconds")
        .min(1, "renameTimeoutSeconds must be at least 1")
        .max(MAX_RENAME_TIMEOUT_SECONDS, `renameTimeoutSeconds must be at most ${MAX_RENAME_TIMEOUT_SECONDS}`)
        .default(DEFAULT_RENAME_TIMEOUT_SECONDS),
      {
        description:
          "How long `pulumi up` waits for a rename to finish, in seconds (1 to 3600). Default 120. Changing it updates state only.",
      },
    ),
    importId: field(login("importId").optional(), {
      description:
        "Adopt the existing organisation with this login instead of creating one (renaming it when `login` differs). Only read at create; later changes are ignored.",
      createOnly: true,
    }),
  }),
  outputs: z.object({
    orgId: output(z.number().int(), "The organisation's numeric id, which a rename keeps."),
  }),
  discovery: {
    scope: "siteAdmin",
    what: () => "organisations",
    names: ["org-{login}"],
    // The API lists no organisations: those named with --org are adopted by login (read accepts a
    // login as the id).
    async list(_c, { orgs }) {
      return orgs.map((org) => ({ id: org, importId: org }));
    },
  },
});

export type OrganizationArgs = ArgsOf<typeof organizationKind.inputs>;
export type OrganizationInputs = z.infer<typeof organizationKind.inputs>;
export type OrganizationOutputs = OutputsOfKind<typeof organizationKind>;

/**
 * A new organisation needs its admin; an adopted one has one already, and so has one already in
 * state (imported with Pulumi's `import`, whose check gets the inputs read as the old ones).
 */
function adminRule(
  inputs: OrganizationInputs,
  olds: Partial<OrganizationInputs>,
): pulumi.dynamic.CheckFailure | undefined {
  if (inputs.admin !== undefined || inputs.importId !== undefined || isRecorded(olds)) return undefined;
  return {
    property: "admin",
    reason:
      "admin is required: the login of the user who will manage the new organisation (or set importId to adopt an existing one)",
  };
}

/** Whether check was given the inputs of an object in state (beside the dynamic provider's own). */
const isRecorded = (olds: object) => Object.keys(olds).some((k) => k !== "__provider");

/** Fields the API takes only at creation and never shows. */
const CREATE_ONLY = ["admin", "profileName"] as const;

/**
 * A change to `admin` or `profileName` after creation, refused at preview with no request: the API
 * can change neither, and replacing the organisation is impossible (it has no delete).
 */
async function refuseCreateOnlyChange(
  inputs: OrganizationInputs,
  olds: Partial<OrganizationInputs>,
): Promise<pulumi.dynamic.CheckFailure | undefined> {
  if (!isRecorded(olds)) return undefined;
  for (const field of CREATE_ONLY) {
    const before = olds[field];
    const after = inputs[field];
    if (before === after) continue;
    const was = before === undefined ? "unset" : JSON.stringify(before);
    return {
      property: field,
      reason:
        field === "admin"
          ? `admin is used only when the organisation is created and cannot change (it was ${was}); set it back, and add an OrgMembership with role "admin" to make someone else an owner`
          : `profileName is used only when the organisation is created and cannot change through the API (it was ${was}); set it back and change the display name in the organisation's settings`,
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** Outputs from the server's organisation; what the API never shows comes from state. */
function organizationOutputs(
  recorded: Partial<Pick<OrganizationInputs, "admin" | "profileName" | "renameTimeoutSeconds" | "importId">>,
  api: ApiOrganization,
): OrganizationOutputs {
  return compact({
    login: api.login,
    admin: recorded.admin,
    profileName: recorded.profileName,
    renameTimeoutSeconds: recorded.renameTimeoutSeconds ?? DEFAULT_RENAME_TIMEOUT_SECONDS,
    importId: recorded.importId,
    orgId: api.id,
  });
}

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

/** The first pause between polls of a rename, and the longest. */
const RENAME_POLL_FIRST_MS = 250;
const RENAME_POLL_MAX_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const getOrg = async (c: HostingClient, org: string) => (await c.get(metaRoutes.meta.org, { org })).data;

/**
 * A 404 of a site-administration route: every caller but a site administrator with a classic token
 * gets one. The error says who the token is and what is needed.
 */
async function siteAdminRefusal(c: HostingClient, original: unknown, method: string, path: string) {
  let who = "this token";
  try {
    const user = (await c.get(metaRoutes.meta.user, {})).data;
    if (user.login)
      who = `the token of ${user.login}${user.site_admin ? " (a site administrator: a fine-grained token?)" : " (not a site administrator)"}`;
  } catch {
    who = "this token (an app or installation token)";
  }
  return notAllowedError(
    isHostingApiError(original) ? original : { method, path },
    `Organization needs the classic personal access token of a site administrator; the server answered 404 to ${who}`,
    "Set hosting:token to a site administrator's classic token (fine-grained and app tokens are refused on /admin/organizations)",
  );
}

/** POST, without ever making a second organisation after an ambiguous failure. */
async function createOrg(c: HostingClient, inputs: OrganizationInputs): Promise<ApiOrganization> {
  const path = organizationsRoutes.orgAdmin.create.path({});
  const body = compact({ login: inputs.login, admin: inputs.admin, profile_name: inputs.profileName });
  try {
    const made = await createWithoutDuplicates(
      async () => (await c.post(organizationsRoutes.orgAdmin.create, {}, body)).data,
      // Logins are unique: an organisation with this login after a failed attempt is its work.
      () => readOrGone(() => getOrg(c, inputs.login)),
    );
    return made.value;
  } catch (e) {
    if (isNotFound(e)) throw await siteAdminRefusal(c, e, "POST", path);
    if (isHostingApiError(e) && e.status === 422 && e.errors.some((d) => d.code === "already_exists")) {
      throw validationError(
        { method: "POST", path },
        `the login ${inputs.login} is already taken (by an organisation or a user)`,
        `If it is an organisation to bring under management, set importId to "${inputs.login}"; otherwise choose another login`,
      );
    }
    throw e;
  }
}

/** A 422 that says a rename of the organisation is already queued. */
const renameInProgress = (e: unknown) =>
  isHostingApiError(e) && e.status === 422 && /already in progress/i.test(e.message);

/**
 * Renames organisation `orgId` from `from` to `to` and waits for the job. Safe to run again after
 * any failure: a rename already queued is waited for, one already done is recognised.
 */
async function rename(
  c: HostingClient,
  orgId: number,
  from: string,
  to: string,
  timeoutSeconds: number,
): Promise<ApiOrganization> {
  const path = organizationsRoutes.orgAdmin.rename.path({ org: from });
  for (let attempt = 1; ; attempt++) {
    try {
      await c.patch(organizationsRoutes.orgAdmin.rename, { org: from }, { login: to });
      break;
    } catch (e) {
      if (renameInProgress(e)) break;
      if (isNotFound(e)) {
        // Done already (an earlier run's job), gone, or a token that may not use the route.
        const renamed = await readOrGone(() => getOrg(c, to));
        if (renamed?.id === orgId) return renamed;
        const still = await readOrGone(() => getOrg(c, from));
        if (still === undefined) {
          throw notFoundError({
            method: "PATCH",
            path,
            what: `Organization ${from}`,
            causes: [`there is no organisation ${from} any more (deleted, or renamed outside Pulumi)`],
          });
        }
        throw await siteAdminRefusal(c, e, "PATCH", path);
      }
      if (!isAmbiguous(e) || attempt >= 3) throw e;
      // The PATCH may have queued the job: sending it again answers 422 (in progress) or 404 (done).
    }
  }
  const deadline = Date.now() + timeoutSeconds * 1000;
  let pause = RENAME_POLL_FIRST_MS;
  for (;;) {
    const renamed = await readOrGone(() => getOrg(c, to));
    if (renamed?.id === orgId) return renamed;
    if (Date.now() + pause > deadline) break;
    await sleep(pause);
    pause = Math.min(pause * 2, RENAME_POLL_MAX_MS);
  }
  throw stillPendingError(
    { method: "GET", path: metaRoutes.meta.org.path({ org: to }) },
    `Organization ${from} (id ${orgId}): the rename to ${to} was accepted, but ${to} did not answer within ${timeoutSeconds} s; the rename job is still pending on the server`,
    `Run pulumi up again later (without --refresh: until the job is done, ${from} no longer answers and ${to} not yet): it waits for the same job and queues no second rename. Raise renameTimeoutSeconds if renames take longer on this installation`,
  );
}

/** The login to read: state's, the adopted one, or an id given as a login to `Organization.get`. */
function loginOf(id: string, props: Partial<OrganizationOutputs> | undefined): string {
  const login = props?.login ?? props?.importId ?? (/^\d+$/.test(id) ? undefined : id);
  if (login === undefined) {
    throw configurationError(
      `Organization ${id}: the API finds organisations by login only`,
      "Pass the organisation's login as the id (to pulumi import, or to Organization.get)",
    );
  }
  return login;
}

export const organizationProvider = defineProvider<typeof organizationKind.inputs, OrganizationOutputs>(
  organizationKind,
  {
    adoptedId: (inputs) => inputs.importId,
    // Values unknown during preview skip it, as they skip every preflight.
    preflight: async (inputs, olds) => adminRule(inputs, olds) ?? refuseCreateOnlyChange(inputs, olds),

    async create(inputs) {
      const c = client();
      if (inputs.importId === undefined) {
        const org = await createOrg(c, inputs);
        return { id: organizationKind.formatId({ orgId: org.id }), outs: organizationOutputs(inputs, org) };
      }
      const importId = inputs.importId;
      const existing = await readOrGone(() => getOrg(c, importId));
      if (!existing) {
        throw notFoundError({
          method: "GET",
          path: metaRoutes.meta.org.path({ org: importId }),
          what: `Organization importId ${importId}`,
          causes: [`there is no organisation ${importId}`, "the token cannot see it"],
        });
      }
      const id = organizationKind.formatId({ orgId: existing.id });
      if (existing.login === inputs.login) return { id, outs: organizationOutputs(inputs, existing) };
      try {
        const renamed = await rename(
          c,
          existing.id,
          existing.login,
          inputs.login,
          inputs.renameTimeoutSeconds,
        );
        return { id, outs: organizationOutputs(inputs, renamed) };
      } catch (e) {
        throw new PartialCreateError(id, organizationOutputs(inputs, existing), e);
      }
    },

    async read(id, props) {
      // Not organizationKind.parseId: read also takes the login `pulumi import` is given (importKey),
      // which is no numeric id.
      const org = await readOrGone(() => getOrg(client(), loginOf(id, props)));
      // Another organisation under the login (this one renamed away outside Pulumi): this one is gone.
      if (!org || (/^\d+$/.test(id) && org.id !== Number(id))) return {};
      return {
        id: /^\d+$/.test(id) ? id : organizationKind.formatId({ orgId: org.id }),
        props: organizationOutputs(props ?? {}, org),
      };
    },

    async update(id, olds, news) {
      const { orgId } = organizationKind.parseId(id);
      if (olds.login === news.login) return { outs: { ...news, orgId: olds.orgId } };
      const renamed = await rename(client(), orgId, olds.login, news.login, news.renameTimeoutSeconds);
      return { outs: organizationOutputs(news, renamed) };
    },

    async delete(_id, props) {
      notice(
        `Organization ${props.login}: the API cannot delete organisations; it is left in place and no longer managed by this stack`,
      );
    },
  },
);

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** An organisation of the installation: see its declaration, `organizationKind`. Example: `examples/organizations/`. */
export class Organization extends resourceClass<OrganizationArgs, OrganizationOutputs>(
  organizationProvider,
) {}
