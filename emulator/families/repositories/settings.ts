/**
 * A repository's settings as the API writes them (`POST /orgs/{org}/repos`, `PATCH
 * /repos/{owner}/{repo}`; bodies and defaults from the platform's published description,
 * operations `repos/create-in-org` and `repos/update`): their defaults, how a body is read into a
 * change (every problem at once, as one 422 naming each field), and the rules across fields.
 */
import { MAX_TOPICS, REPOSITORY_VISIBILITIES, type RepositoryVisibility, TOPIC_PATTERN } from "../../../api";
import type { RepoRecord } from "../../core/fixture";
import { type ErrorItem, validationFailed } from "../../core/http";
import { ownValue } from "../../core/records";
import { FIXTURE_CREATED_AT } from "../../core/render";
import type { RawState } from "../../core/store";
import { refNameProblem } from "../git/git";
import type { StoredRepositorySettings } from "./state";

const RESOURCE = "Repository";

/** The longest repository name the platform takes. */
export const MAX_REPOSITORY_NAME_LENGTH = 100;
/** Letters, digits, `.`, `-` and `_`: what a repository name may hold. */
const NAME = /^[A-Za-z0-9._-]+$/;

/** The platform's defaults, what a fixture repository has until it is changed. */
export function defaultSettings(createdAt = FIXTURE_CREATED_AT): StoredRepositorySettings {
  return {
    description: null,
    homepage: null,
    internal: false,
    hasIssues: true,
    hasProjects: true,
    hasWiki: true,
    isTemplate: false,
    allowMergeCommit: true,
    allowSquashMerge: true,
    allowRebaseMerge: true,
    allowAutoMerge: false,
    deleteBranchOnMerge: false,
    allowUpdateBranch: false,
    topics: [],
    createdAt,
    updatedAt: createdAt,
  };
}

/** The repository's settings (its stored ones, else the defaults). */
export function settingsOf(
  state: Pick<RawState, "repositorySettings">,
  repo: Pick<RepoRecord, "id">,
): StoredRepositorySettings {
  return ownValue(state.repositorySettings, String(repo.id)) ?? defaultSettings();
}

export function visibilityOf(repo: RepoRecord, settings: StoredRepositorySettings): RepositoryVisibility {
  if (settings.internal) return "internal";
  return repo.private ? "private" : "public";
}

/** The boolean settings, by their name in a body. */
const FLAGS = [
  ["has_issues", "hasIssues"],
  ["has_projects", "hasProjects"],
  ["has_wiki", "hasWiki"],
  ["is_template", "isTemplate"],
  ["allow_merge_commit", "allowMergeCommit"],
  ["allow_squash_merge", "allowSquashMerge"],
  ["allow_rebase_merge", "allowRebaseMerge"],
  ["allow_auto_merge", "allowAutoMerge"],
  ["delete_branch_on_merge", "deleteBranchOnMerge"],
  ["allow_update_branch", "allowUpdateBranch"],
] as const satisfies ReadonlyArray<readonly [string, keyof StoredRepositorySettings]>;

type FlagKey = (typeof FLAGS)[number][1];

/** What a body asks to change; absent fields are left as they are. */
export interface RepositoryChange {
  name?: string;
  description?: string | null;
  homepage?: string | null;
  visibility?: RepositoryVisibility;
  flags: Partial<Record<FlagKey, boolean>>;
  defaultBranch?: string;
  archived?: boolean;
  autoInit?: boolean;
}

/** Which operation the body is for: creation takes `auto_init`, an update `default_branch` and `archived`. */
export type BodyKind = "create" | "update";

/**
 * Reads a create or update body. Unknown fields are ignored, as the platform ignores them; a
 * field of the wrong type or value is a 422 naming it. `private` is read where `visibility` is not
 * given (the description: visibility overrides private).
 */
export function parseRepositoryBody(body: Record<string, unknown>, kind: BodyKind): RepositoryChange {
  const problems: ErrorItem[] = [];
  const invalid = (field: string, message: string) =>
    problems.push({ resource: RESOURCE, field, code: "invalid", message });
  const change: RepositoryChange = { flags: {} };
  if (body.name === undefined) {
    if (kind === "create")
      problems.push({ resource: RESOURCE, field: "name", code: "missing_field", message: "name is missing" });
  } else {
    const problem = nameProblem(body.name);
    if (problem) invalid("name", problem);
    else change.name = body.name as string;
  }
  for (const field of ["description", "homepage"] as const) {
    const value = body[field];
    if (value === undefined) continue;
    if (value !== null && typeof value !== "string") invalid(field, `${field} must be a string`);
    // The platform keeps no empty text: "" clears the field.
    else change[field] = value === null || value === "" ? null : value;
  }
  const visibility = body.visibility;
  if (visibility !== undefined) {
    if (
      typeof visibility === "string" &&
      (REPOSITORY_VISIBILITIES as readonly string[]).includes(visibility)
    ) {
      change.visibility = visibility as RepositoryVisibility;
    } else invalid("visibility", `visibility must be one of ${REPOSITORY_VISIBILITIES.join(", ")}`);
  } else if (body.private !== undefined) {
    if (typeof body.private !== "boolean") invalid("private", "private must be true or false");
    else change.visibility = body.private ? "private" : "public";
  }
  for (const [field, key] of FLAGS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== "boolean") invalid(field, `${field} must be true or false`);
    else change.flags[key] = value;
  }
  if (kind === "create" && body.auto_init !== undefined) {
    if (typeof body.auto_init !== "boolean") invalid("auto_init", "auto_init must be true or false");
    else change.autoInit = body.auto_init;
  }
  if (kind === "update" && body.default_branch !== undefined) {
    const value = body.default_branch;
    const problem = typeof value === "string" ? refNameProblem(value) : "it is not a string";
    if (problem) invalid("default_branch", `default_branch is not a valid branch name: ${problem}`);
    else change.defaultBranch = value as string;
  }
  if (kind === "update" && body.archived !== undefined) {
    if (typeof body.archived !== "boolean") invalid("archived", "archived must be true or false");
    else change.archived = body.archived;
  }
  if (problems.length > 0) throw validationFailed(...problems);
  return change;
}

/** Why a repository name is refused, or undefined. */
function nameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name === "") return "name must be a non-empty string";
  if (name.length > MAX_REPOSITORY_NAME_LENGTH) {
    return `name is too long (at most ${MAX_REPOSITORY_NAME_LENGTH} characters)`;
  }
  if (!NAME.test(name) || name === "." || name === "..") {
    return 'name may hold only letters, digits, ".", "-" and "_" (and is not "." or "..")';
  }
  if (name.toLowerCase().endsWith(".git")) return 'name cannot end in ".git"';
  return undefined;
}

/**
 * The settings after a change, checked across fields: a repository keeps at least one way to merge
 * a pull request (the platform's 422), and internal repositories exist only in an enterprise.
 */
export function changedSettings(
  before: StoredRepositorySettings,
  change: RepositoryChange,
  inEnterprise: boolean,
  now: string,
): StoredRepositorySettings {
  const after: StoredRepositorySettings = {
    ...before,
    ...change.flags,
    ...(change.description === undefined ? {} : { description: change.description }),
    ...(change.homepage === undefined ? {} : { homepage: change.homepage }),
    ...(change.visibility === undefined ? {} : { internal: change.visibility === "internal" }),
    updatedAt: now,
  };
  if (!after.allowMergeCommit && !after.allowSquashMerge && !after.allowRebaseMerge) {
    throw validationFailed({
      resource: RESOURCE,
      field: "allow_merge_commit",
      code: "invalid",
      message:
        "A repository must allow at least one of merge commits, squash merging and rebase merging (allow_merge_commit, allow_squash_merge, allow_rebase_merge)",
    });
  }
  if (change.visibility === "internal" && !inEnterprise) {
    throw validationFailed({
      resource: RESOURCE,
      field: "visibility",
      code: "invalid",
      message: "visibility internal is available only to organisations of an enterprise",
    });
  }
  return after;
}

/**
 * Reads a topics body (`{names}`): each topic lower-cased, as the platform saves them, then
 * checked; repeats kept once. The description gives this operation `validation-error-simple`, so
 * the 422's errors are strings (`TopicsFailure`).
 */
export function parseTopics(body: Record<string, unknown>): { topics?: string[]; problems: string[] } {
  const names = body.names;
  if (names === undefined) return { problems: ["names is missing"] };
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) {
    return { problems: ["names must be an array of strings"] };
  }
  const topics = [...new Set((names as string[]).map((n) => n.trim().toLowerCase()))];
  const problems = topics
    .filter((t) => !TOPIC_PATTERN.test(t))
    .map(
      (t) =>
        `${JSON.stringify(t)} is not a valid topic: topics start with a letter or digit, hold lower-case letters, digits and hyphens, and are at most 50 characters`,
    );
  if (topics.length > MAX_TOPICS) problems.push(`a repository has at most ${MAX_TOPICS} topics`);
  return { topics, problems };
}
