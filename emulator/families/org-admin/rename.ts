/**
 * Enterprise organisation administration (spec, endpoints, Enterprise organization
 * administration): creating an organisation, and renaming one, which the platform does as a
 * queued job after its 202. A rename moves everything the state keys by the organisation's login
 * to the new login at once, when the job runs (`ORG_LOGIN_KEYS`).
 */
import type { OrgRecord } from "../../core/fixture";
import { type ErrorItem, validationFailed } from "../../core/http";
import { pendingJobs, registerJob } from "../../core/jobs";
import { findOrg, findUser } from "../../core/lookup";
import type { RowOf, RowsKey, Store } from "../../core/store";

export const RENAME_JOB = "orgs.rename";

export const RENAME_MESSAGE = "Job queued to rename organization. It may take a few minutes to complete.";

/** The platform's rule for logins: letters, digits and single hyphens inside, at most 39. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

const RESOURCE = "Organization";

export interface Rename {
  /** The login as the organisation spells it now. */
  from: string;
  to: string;
}

interface LoginKey {
  what: string;
  move: (store: Store, rename: Rename) => void;
}

/** The string fields of a collection's records. */
type TextField<K extends RowsKey> = {
  [F in keyof RowOf<K>]: RowOf<K>[F] extends string ? F : never;
}[keyof RowOf<K>] &
  string;

/** Records of `collection` whose `field` is the organisation's login: moved to the new login. */
function orgLoginsOf<K extends RowsKey>(collection: K, field: TextField<K>, what: string): LoginKey {
  return {
    what,
    move: (store, r) => {
      for (const row of store.raw[collection] as ReadonlyArray<Readonly<RowOf<K>>>) {
        const value = row[field] as string;
        if (isOrg(value, r)) (store.tracked(collection, row)[field] as string) = r.to;
      }
    },
  };
}

/** Records of `collection` whose `field` is an `owner/name` of the organisation: moved with it. */
function repoPathsOf<K extends RowsKey>(collection: K, field: TextField<K>, what: string): LoginKey {
  return {
    what,
    move: (store, r) => {
      for (const row of store.raw[collection] as ReadonlyArray<Readonly<RowOf<K>>>) {
        const moved = movedPath(row[field] as string, r);
        if (moved) (store.tracked(collection, row)[field] as string) = moved;
      }
    },
  };
}

/**
 * Every place the state holds an organisation's login, each moved from `from` to `to` by a rename.
 * A family that stores an organisation's login (alone, or in an `owner/name` key) adds its entry
 * here: what is not listed stays under the old name and is lost to the organisation.
 */
const ORG_LOGIN_KEYS: LoginKey[] = [
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
  orgLoginsOf("invitations", "org", "invitations' organisation"),
  {
    what: "repository webhooks' owner/name",
    move: (store, r) => {
      for (const h of store.raw.repoHooks) {
        const repo = h.repo && movedPath(h.repo, r);
        if (repo) store.tracked("repoHooks", h).repo = repo;
      }
    },
  },
  {
    what: "organisation runner groups' owner",
    move: (store, r) => {
      for (const g of store.raw.runnerGroups) {
        if (g.scope === "org" && isOrg(g.owner, r)) store.tracked("runnerGroups", g).owner = r.to;
      }
    },
  },
  repoPathsOf("protectionRules", "repo", "protection rules' owner/name"),
  orgLoginsOf("orgPropertyValues", "target", "organisation property values' target"),
  repoPathsOf("repoPropertyValues", "target", "repository property values' owner/name"),
  {
    what: "budgets' entity name (organisation and repository scopes)",
    move: (store, r) => {
      for (const b of store.raw.budgets) {
        if (b.scope === "organization" && isOrg(b.entityName, r)) {
          store.tracked("budgets", b).entityName = r.to;
        } else if (b.scope === "repository") {
          const [owner = "", ...rest] = b.entityName.split("/");
          if (rest.length === 1 && isOrg(owner, r))
            store.tracked("budgets", b).entityName = `${r.to}/${rest[0]}`;
        }
      }
    },
  },
  orgLoginsOf("privateRegistries", "org", "private registries' organisation"),
  {
    what: "private registry key pairs (keyed by lower-case login)",
    move: (store, r) => {
      const keys = store.state.registryKeys;
      const from = r.from.toLowerCase();
      const to = r.to.toLowerCase();
      const pair = Object.hasOwn(keys, from) ? keys[from] : undefined;
      if (pair === undefined || from === to) return;
      keys[to] = { ...pair };
      delete keys[from];
    },
  },
  {
    what: "the fixture's git seeds (repository and upstream owner/name)",
    move: (store, r) => {
      for (const seed of store.state.fixture.git) {
        const repo = movedPath(seed.repo, r);
        if (repo) seed.repo = repo;
        const upstream = seed.upstream && movedPath(seed.upstream, r);
        if (upstream) seed.upstream = upstream;
      }
    },
  },
  {
    what: "git repositories (keyed by owner/name) and their upstream",
    move: (store, r) => {
      const repos = store.state.gitRepos;
      for (const [key, git] of Object.entries(store.raw.gitRepos)) {
        const upstream = git.upstream && movedPath(git.upstream, r);
        const moved = movedPath(key, r);
        if (!moved && !upstream) continue;
        const next = { ...git, ...(upstream ? { upstream } : {}) };
        if (moved) delete repos[key];
        repos[moved ?? key] = next;
      }
    },
  },
  repoPathsOf("branches", "repo", "branches' owner/name"),
  repoPathsOf("branchRedirects", "repo", "branch redirects' owner/name"),
  {
    what: "statistics cache (keyed by owner/name)",
    move: (store, r) => {
      const cache = store.state.statisticsCache;
      for (const [key, entry] of Object.entries(store.raw.statisticsCache)) {
        const moved = movedPath(key, r);
        if (!moved) continue;
        delete cache[key];
        cache[moved] = { ...entry };
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
  {
    what: "the fixture's teams, issues (and where they were transferred), pull requests, alerts and dependency graph",
    move: (store, r) => {
      const fixture = store.state.fixture;
      for (const team of fixture.teams ?? []) if (isOrg(team.org, r)) team.org = r.to;
      for (const issue of fixture.issues ?? []) {
        const repo = movedPath(issue.repo, r);
        if (repo) issue.repo = repo;
        if (issue.transferredTo && isOrg(issue.transferredTo.owner, r)) issue.transferredTo.owner = r.to;
      }
      for (const seeded of [
        ...(fixture.pullRequests ?? []),
        ...(fixture.dependencyAlerts ?? []),
        ...(fixture.dependencyGraph ?? []),
      ]) {
        const repo = movedPath(seeded.repo, r);
        if (repo) seeded.repo = repo;
      }
    },
  },
  repoPathsOf("pullRequests", "repo", "pull requests' owner/name"),
  repoPathsOf("dependencyAlerts", "repo", "dependency alerts' owner/name"),
  repoPathsOf("dependencySnapshots", "repo", "dependency snapshots' owner/name"),
  {
    what: "security managers' organisation (lower case)",
    move: (store, r) => {
      for (const m of store.raw.securityManagers) {
        if (isOrg(m.org, r)) store.tracked("securityManagers", m).org = r.to.toLowerCase();
      }
    },
  },
  orgLoginsOf("orgBlocks", "org", "organisation blocks' organisation"),
  orgLoginsOf("issueTypes", "org", "issue types' organisation"),
  orgLoginsOf("issueFields", "org", "issue fields' organisation"),
];

/** Whether `value` names the organisation being renamed (logins are case-insensitive). */
function isOrg(value: string, rename: Rename): boolean {
  return value.toLowerCase() === rename.from.toLowerCase();
}

/** An `owner/name` key (lower case) of the renamed organisation, moved; undefined for others. */
function movedPath(key: string, rename: Rename): string | undefined {
  const slash = key.indexOf("/");
  if (slash < 0 || !isOrg(key.slice(0, slash), rename)) return undefined;
  return `${rename.to}${key.slice(slash)}`.toLowerCase();
}

/** Renames the organisation everywhere the state names it. */
export function renameOrg(store: Store, rename: Rename): void {
  for (const key of ORG_LOGIN_KEYS) key.move(store, rename);
}

registerJob(RENAME_JOB, (store, data) => {
  const org = store.raw.fixture.orgs.find((o) => o.id === data.orgId);
  // The organisation is renamed from the login it has now, whatever it was when queued.
  if (org) renameOrg(store, { from: org.login, to: String(data.to) });
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
