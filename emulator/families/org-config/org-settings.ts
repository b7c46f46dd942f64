/**
 * An organisation's profile and member policies (`PATCH /orgs/{org}`; the spec's matrix names
 * organisation Administration without its endpoints, so body, statuses and enums come from the
 * platform's published description, operation `orgs/update`). `GET /orgs/{org}` (the meta family)
 * shows the organisation as `orgFull` renders it: its settings to its owners only.
 *
 * - Owners only: scope `admin:org` or `repo`, or the organisation permission
 *   `organization_administration` write; a member gets 403, an unknown organisation 404.
 * - Every field is optional; fields the sandbox does not model are ignored, as the platform ignores
 *   unknown ones. A wrong type or value is a 422 naming the field. `description` is the
 *   organisation's own (what its summary shows).
 * - Internal repositories exist only in an enterprise: `members_can_create_internal_repositories`
 *   is refused (422) for an organisation outside one.
 */
import type { Context, Hono } from "hono";
import { DEFAULT_REPOSITORY_PERMISSIONS, ROUTES } from "../../../api";
import { type AccessRule, callerOf, orgRole } from "../../core/auth";
import type { ServerEnv } from "../../core/context";
import type { OrgRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import { type ErrorItem, readBody, validationFailed } from "../../core/http";
import { ownValue } from "../../core/records";
import { FIXTURE_CREATED_AT, orgDetails } from "../../core/render";
import { type RawState, timestamp } from "../../core/store";
import { configOrg } from "./config";
import type { StoredOrgSettings } from "./state";

const WRITE: AccessRule = {
  scopes: ["admin:org", "repo"],
  permission: ["organization_administration", "write"],
};

const RESOURCE = "Organization";
/** The longest description the platform takes. */
export const MAX_ORG_DESCRIPTION_LENGTH = 160;

/** What an organisation has until an owner changes it: the platform's defaults. */
export const DEFAULT_ORG_SETTINGS: StoredOrgSettings = {
  billingEmail: null,
  company: null,
  email: null,
  location: null,
  blog: null,
  defaultRepositoryPermission: "read",
  membersCanCreateRepositories: true,
  membersCanCreatePublicRepositories: true,
  membersCanCreatePrivateRepositories: true,
  membersCanCreateInternalRepositories: true,
  membersCanForkPrivateRepositories: false,
  webCommitSignoffRequired: false,
};

/** The organisation's settings (its stored ones, else the defaults). */
export function orgSettingsOf(state: Pick<RawState, "orgSettings">, org: OrgRecord): StoredOrgSettings {
  return ownValue(state.orgSettings, String(org.id)) ?? DEFAULT_ORG_SETTINGS;
}

/**
 * An organisation as its own page shows it (the platform's full organisation): its summary, counts
 * of what the sandbox holds, and, for its owners, its settings (`settingsFields`).
 */
export function orgFull(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  const updatedAt = ownValue(c.get("store").raw.orgSettings, String(org.id))?.updatedAt ?? FIXTURE_CREATED_AT;
  return {
    ...orgDetails(c, org, updatedAt),
    ...settingsFields(c, org),
  };
}

/**
 * What the full organisation adds for a caller who may see its details (an owner; a classic token
 * also needs `admin:org`): the profile (strings left out when unset, as the description gives them
 * no null) and the member policies.
 */
function settingsFields(c: Context<ServerEnv>, org: OrgRecord): Record<string, unknown> {
  const caller = c.get("caller");
  if (!caller || orgRole(caller, org) !== "admin") return {};
  if (caller.token.kind === "classic" && !caller.token.scopes.includes("admin:org")) return {};
  const s = orgSettingsOf(c.get("store").raw, org);
  const text = (key: string, value: string | null) => (value === null ? {} : { [key]: value });
  const internal = org.enterprise !== undefined;
  return {
    ...(org.profileName === undefined ? {} : { name: org.profileName }),
    ...text("company", s.company),
    ...text("blog", s.blog),
    ...text("location", s.location),
    ...text("email", s.email),
    billing_email: s.billingEmail,
    default_repository_permission: s.defaultRepositoryPermission,
    members_can_create_repositories: s.membersCanCreateRepositories,
    members_can_create_public_repositories: s.membersCanCreatePublicRepositories,
    members_can_create_private_repositories: s.membersCanCreatePrivateRepositories,
    ...(internal ? { members_can_create_internal_repositories: s.membersCanCreateInternalRepositories } : {}),
    members_allowed_repository_creation_type: creationType(s),
    members_can_fork_private_repositories: s.membersCanForkPrivateRepositories,
    web_commit_signoff_required: s.webCommitSignoffRequired,
  };
}

/** The closing-down summary of the creation policies the platform still shows. */
function creationType(s: StoredOrgSettings): "all" | "private" | "none" {
  if (!s.membersCanCreateRepositories) return "none";
  return s.membersCanCreatePublicRepositories ? "all" : "private";
}

/** Whether a member (not an owner) may create a repository of this visibility in the organisation. */
export function membersMayCreate(
  state: Pick<RawState, "orgSettings">,
  org: OrgRecord,
  visibility: "public" | "private" | "internal",
): boolean {
  const s = orgSettingsOf(state, org);
  if (!s.membersCanCreateRepositories) return false;
  if (visibility === "public") return s.membersCanCreatePublicRepositories;
  if (visibility === "private") return s.membersCanCreatePrivateRepositories;
  return s.membersCanCreateInternalRepositories;
}

type TextKey = "billingEmail" | "company" | "email" | "location" | "blog";
type FlagKey =
  | "membersCanCreateRepositories"
  | "membersCanCreatePublicRepositories"
  | "membersCanCreatePrivateRepositories"
  | "membersCanCreateInternalRepositories"
  | "membersCanForkPrivateRepositories"
  | "webCommitSignoffRequired";

const TEXTS: ReadonlyArray<[string, TextKey]> = [
  ["billing_email", "billingEmail"],
  ["company", "company"],
  ["email", "email"],
  ["location", "location"],
  ["blog", "blog"],
];
const FLAGS: ReadonlyArray<[string, FlagKey]> = [
  ["members_can_create_repositories", "membersCanCreateRepositories"],
  ["members_can_create_public_repositories", "membersCanCreatePublicRepositories"],
  ["members_can_create_private_repositories", "membersCanCreatePrivateRepositories"],
  ["members_can_create_internal_repositories", "membersCanCreateInternalRepositories"],
  ["members_can_fork_private_repositories", "membersCanForkPrivateRepositories"],
  ["web_commit_signoff_required", "webCommitSignoffRequired"],
];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why a profile text is refused, or undefined (an empty string clears it). */
function textProblem(field: string, value: string): string | undefined {
  if (value === "") return undefined;
  if ((field === "email" || field === "billing_email") && !EMAIL.test(value)) {
    return `${field} must be an email address such as "org@example.com"`;
  }
  if (field === "blog") {
    try {
      const url = new URL(value);
      if (url.protocol === "http:" || url.protocol === "https:") return undefined;
    } catch {
      // not a URL at all
    }
    return `${field} must be an absolute http(s) URL such as "https://example.com"`;
  }
  return undefined;
}

/** The body read into a change of the settings; every problem at once, as one 422. */
function parseSettings(
  body: Record<string, unknown>,
  org: OrgRecord,
): { settings: Partial<StoredOrgSettings>; description?: string | null; name?: string } {
  const problems: ErrorItem[] = [];
  const invalid = (field: string, message: string) =>
    problems.push({ resource: RESOURCE, field, code: "invalid", message });
  const settings: Partial<StoredOrgSettings> = {};
  const out: { settings: Partial<StoredOrgSettings>; description?: string | null; name?: string } = {
    settings,
  };
  for (const [field, key] of TEXTS) {
    const value = body[field];
    if (value === undefined) continue;
    if (value !== null && typeof value !== "string") {
      invalid(field, `${field} must be a string`);
      continue;
    }
    const problem = value === null ? undefined : textProblem(field, value);
    if (problem) invalid(field, problem);
    else settings[key] = value === null || value === "" ? null : value;
  }
  for (const [field, key] of FLAGS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== "boolean") invalid(field, `${field} must be true or false`);
    else if (key === "membersCanCreateInternalRepositories" && org.enterprise === undefined) {
      invalid(field, `${field}: internal repositories exist only in organisations of an enterprise`);
    } else settings[key] = value;
  }
  const permission = body.default_repository_permission;
  if (permission !== undefined) {
    if (
      typeof permission === "string" &&
      (DEFAULT_REPOSITORY_PERMISSIONS as readonly string[]).includes(permission)
    ) {
      settings.defaultRepositoryPermission = permission as StoredOrgSettings["defaultRepositoryPermission"];
    } else {
      invalid(
        "default_repository_permission",
        `default_repository_permission must be one of ${DEFAULT_REPOSITORY_PERMISSIONS.join(", ")}`,
      );
    }
  }
  const description = body.description;
  if (description !== undefined) {
    if (description !== null && typeof description !== "string")
      invalid("description", "description must be a string");
    else if (typeof description === "string" && description.length > MAX_ORG_DESCRIPTION_LENGTH) {
      invalid("description", `description is too long (at most ${MAX_ORG_DESCRIPTION_LENGTH} characters)`);
    } else out.description = description;
  }
  if (body.name !== undefined) {
    if (typeof body.name !== "string") invalid("name", "name must be a string");
    else out.name = body.name;
  }
  if (problems.length > 0) throw validationFailed(...problems);
  return out;
}

export function orgSettingsRoutes(app: Hono<ServerEnv>): void {
  app.patch(ROUTES.orgSettings.update.pattern, guard(WRITE), async (c) => {
    callerOf(c);
    const org = configOrg(c, "owner", "change its settings");
    const change = parseSettings(await readBody(c), org);
    const store = c.get("store");
    const key = String(org.id);
    store.state.orgSettings[key] = {
      ...orgSettingsOf(store.raw, org),
      ...change.settings,
      updatedAt: timestamp(),
    };
    if (change.description !== undefined) org.description = change.description ?? "";
    if (change.name !== undefined) org.profileName = change.name;
    return c.json(orgFull(c, org));
  });
}
