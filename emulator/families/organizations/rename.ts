/**
 * Enterprise organisation administration (spec, endpoints, Enterprise organization
 * administration): creating an organisation, and renaming one, which the platform does as a
 * queued job after its 202. A rename moves everything the state keys by the organisation's login
 * to the new login at once, when the job runs: the world's places (`WORLD_ORG_LOGINS`) and every
 * family's (`Family.orgLogins`).
 */
import type { OrgRecord } from "../../core/fixture";
import { type ErrorItem, validationFailed } from "../../core/http";
import { pendingJobs, registerJob } from "../../core/jobs";
import { findOrg, findUser } from "../../core/lookup";
import { isOrg, movedPath } from "../../core/org-logins";
import type { OrgLoginKey, Rename } from "../../core/state";
import type { Store } from "../../core/store";

export const RENAME_JOB = "orgs.rename";

export const RENAME_MESSAGE = "Job queued to rename organization. It may take a few minutes to complete.";

/** The platform's rule for logins: letters, digits and single hyphens inside, at most 39. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

const RESOURCE = "Organization";

/**
 * The places of the world (the fixture's organisations, repositories, runners, apps and tokens) and
 * of the job queue that hold an organisation's login; each family lists its own (`orgLogins`).
 */
const WORLD_ORG_LOGINS: OrgLoginKey[] = [
  {
    what: "organisations' login",
    move: (store, r) => {
      for (const org of store.state.fixture.orgs) if (isOrg(org.login, r)) org.login = r.to;
    },
  },
  {
    what: "repositories' owner",
    move: (store, r) => {
      for (const repo of store.state.fixture.repos) if (isOrg(repo.owner, r)) repo.owner = r.to;
    },
  },
  {
    what: "runners' organisation",
    move: (store, r) => {
      for (const runner of store.state.fixture.runners)
        if (runner.org && isOrg(runner.org, r)) runner.org = r.to;
    },
  },
  {
    what: "apps' installations",
    move: (store, r) => {
      for (const app of store.state.fixture.apps) {
        if (app.installedOn.some((o) => isOrg(o, r)))
          app.installedOn = app.installedOn.map((o) => (isOrg(o, r) ? r.to : o));
      }
    },
  },
  {
    what: "installation tokens' organisation",
    move: (store, r) => {
      for (const token of Object.values(store.state.fixture.tokens)) {
        if (token.installationOrg && isOrg(token.installationOrg, r)) token.installationOrg = r.to;
      }
    },
  },
  {
    what: "pending jobs' repository (branch renames, statistics computations)",
    move: (store, r) => {
      for (const job of store.raw.jobs) {
        const repo = typeof job.data.repo === "string" ? movedPath(job.data.repo, r) : undefined;
        if (repo) store.tracked("jobs", job).data = { ...job.data, repo };
      }
    },
  },
];

/**
 * Renames the organisation everywhere the state names it: the world's places, then each family's.
 * Given a repository move (`owner/name` paths, `isRepositoryMove`), it moves that repository's keys
 * the same way (the repositories family's renames and deletions).
 */
export function renameEverywhere(store: Store, rename: Rename): void {
  for (const key of WORLD_ORG_LOGINS) key.move(store, rename);
  for (const family of store.model.families)
    for (const key of family.orgLogins ?? []) key.move(store, rename);
}

registerJob(RENAME_JOB, (store, data) => {
  const org = store.raw.fixture.orgs.find((o) => o.id === data.orgId);
  // The organisation is renamed from the login it has now, whatever it was when queued.
  if (org) renameEverywhere(store, { from: org.login, to: String(data.to) });
});

/** A pending rename of the organisation, if any. */
export function pendingRename(store: Store, org: OrgRecord): boolean {
  return pendingJobs(store, RENAME_JOB, { orgId: org.id }).length > 0;
}

/**
 * Checks a login for a new or renamed organisation (`self`: the one being renamed): a string by the
 * platform's rules, naming no other user or organisation, nor the target of a pending rename.
 */
export function checkLogin(store: Store, raw: unknown, self?: OrgRecord): string {
  if (raw === undefined || raw === null || raw === "") {
    throw validationFailed({
      resource: RESOURCE,
      field: "login",
      code: "missing_field",
      message: "login is missing",
    });
  }
  const invalid = (message: string): ErrorItem => ({
    resource: RESOURCE,
    field: "login",
    code: "invalid",
    message,
  });
  if (typeof raw !== "string" || !LOGIN.test(raw)) {
    throw validationFailed(
      invalid(
        "login may only contain letters, digits and single hyphens, cannot begin or end with a hyphen, and is at most 39 characters",
      ),
    );
  }
  const key = raw.toLowerCase();
  const org = findOrg(store.state, raw);
  const takenByOrg = org !== undefined && (org.id !== self?.id || org.login === raw);
  const reserved = store.raw.jobs.some(
    (j) => j.kind === RENAME_JOB && String(j.data.to).toLowerCase() === key,
  );
  if (takenByOrg || findUser(store.state, raw) || reserved) {
    throw validationFailed({
      resource: RESOURCE,
      field: "login",
      code: "already_exists",
      message: `login ${raw} is already taken`,
    });
  }
  return raw;
}
