/**
 * Branches (spec, "Branches"): list, get (301 for a name an earlier rename left), rename (answered
 * at once, finished by a background job), merge-upstream of a fork, and merges. Branch names may
 * hold slashes, raw or percent-encoded (the route table's `:branch{.+}`). Plus the control routes
 * that do what a `git push` does and switch merge conflicts on.
 */
import type { Context, Hono } from "hono";
import { ROUTES } from "../../../api";
import { type AccessRule, callerOf } from "../../core/auth";
import type { Caller, ServerEnv } from "../../core/context";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { guard } from "../../core/guard";
import {
  ApiFailure,
  DOCS_URL,
  forbidden,
  invalidField,
  missingField,
  notFound,
  paginate,
  readBody,
  validationFailed,
} from "../../core/http";
import { registerJob, scheduleJob } from "../../core/jobs";
import { findRepo, findUser, readableRepo, refuseArchived, repoKey } from "../../core/lookup";
import { ownValue } from "../../core/records";
import { atLeast, repoRole } from "../../core/repo-access";
import type { EmulatorState, Store } from "../../core/store";
import {
  commitMap,
  findBranch,
  gitRepo,
  history,
  isAncestor,
  moveBranch,
  newCommit,
  pendingRename,
  RENAME_JOB,
  refNameProblem,
  renamePending,
} from "./git";
import { branchUrl, renderBranch, renderCommit, renderShort } from "./render";
import type { StoredCommit } from "./state";

/** List and get: FG Contents read; public. */
const READ: AccessRule = { public: true, permission: ["contents", "read"] };
/** Rename, merge-upstream, merges: FG Contents write; classic `repo`, or `public_repo` on public repositories. */
const WRITE: AccessRule = { scopes: ["repo", "public_repo"], permission: ["contents", "write"] };

const B = ROUTES.branches;

// The rename's background part: the old name starts answering 301 and pushes to it stop being refused.
registerJob(RENAME_JOB, (store, data) => {
  const repo = String(data.repo);
  const from = String(data.from);
  store.state.branchRedirects = store.state.branchRedirects.filter(
    (r) => !(r.repo === repo && r.from === from),
  );
  store.state.branchRedirects.push({ repo, from, to: String(data.to) });
});

export function branchRoutes(app: Hono<ServerEnv>): void {
  app.get(B.list.pattern, guard(READ), (c) => {
    const { store, repo, key } = repository(c, READ);
    const wanted = c.req.query("protected");
    if (wanted !== undefined && wanted !== "true" && wanted !== "false") {
      throw invalidField("Branch", "protected", "protected must be true or false");
    }
    const branches = store.raw.branches
      .filter((b) => b.repo === key && (wanted === undefined || b.protected === (wanted === "true")))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return c.json(paginate(c, branches).map((b) => renderShort(c, repo, b)));
  });

  app.get(B.get.pattern, guard(READ), (c) => {
    const { store, repo, key } = repository(c, READ);
    const name = c.req.param("branch");
    const branch = findBranch(store, key, name);
    if (branch) return c.json(renderBranch(c, store, repo, branch));
    // An earlier rename left the old name: the platform answers where the branch is now.
    const moved = store.raw.branchRedirects.find((r) => r.repo === key && r.from === name);
    const target = moved && findBranch(store, key, moved.to);
    if (!target) throw notFound();
    const url = branchUrl(c, repo, target.name);
    c.header("Location", url);
    return c.json({ message: "Moved Permanently", url, documentation_url: DOCS_URL }, 301);
  });

  app.post(B.rename.pattern, guard(WRITE), async (c) => {
    const caller = callerOf(c);
    const { store, repo, org, key } = repository(c, WRITE);
    refuseArchived(repo);
    const name = c.req.param("branch");
    const branch = findBranch(store, key, name);
    if (!branch) throw notFound();
    requirePush(store.state, caller, org, repo);
    const git = gitRepo(store, key);
    if (git.defaultBranch === name) requireDefaultBranchAdmin(store.state, caller, org, repo);
    const newName = parseNewName(await readBody(c));
    if (findBranch(store, key, newName)) {
      throw validationFailed({
        resource: "Branch",
        field: "new_name",
        code: "already_exists",
        message: `A branch named ${newName} already exists`,
      });
    }
    const unfinished = store.raw.jobs.find(
      (j) => j.kind === RENAME_JOB && j.data.repo === key && (j.data.to === name || j.data.from === newName),
    );
    if (unfinished) {
      throw invalidField(
        "Branch",
        "new_name",
        `The rename of ${String(unfinished.data.from)} to ${String(unfinished.data.to)} has not finished yet; try again later`,
      );
    }
    const renamed = store.tracked("branches", branch);
    renamed.name = newName;
    if (git.defaultBranch === name) store.state.gitRepos[key] = { ...git, defaultBranch: newName };
    // Older names of the branch follow it; a redirect from the new name gives way to the branch.
    store.state.branchRedirects = store.state.branchRedirects
      .filter((r) => !(r.repo === key && r.from === newName))
      .map((r) => (r.repo === key && r.to === name ? { ...r, to: newName } : r));
    scheduleJob(store, c.get("controls"), RENAME_JOB, { repo: key, from: name, to: newName });
    return c.json(renderBranch(c, store, repo, renamed), 201);
  });

  app.post(B.mergeUpstream.pattern, guard(WRITE), async (c) => {
    const caller = callerOf(c);
    const { store, repo, org, key } = repository(c, WRITE);
    refuseArchived(repo);
    requirePush(store.state, caller, org, repo);
    const name = stringField(await readBody(c), "branch", "MergeUpstream", true) as string;
    const git = gitRepo(store, key);
    const upstream =
      git.upstream === undefined ? undefined : findRepo(store.state, ...splitKey(git.upstream));
    if (!upstream) {
      throw new ApiFailure(
        422,
        `${repo.owner}/${repo.name} is not a fork: it has no upstream repository to sync with`,
      );
    }
    const branch = findBranch(store, key, name);
    if (!branch) {
      const pending = pendingRename(store, key, name);
      if (pending) throw renamePending(name, pending.to);
      throw invalidField(
        "MergeUpstream",
        "branch",
        `Branch ${name} does not exist in ${repo.owner}/${repo.name}`,
      );
    }
    const source = findBranch(store, repoKey(upstream), name);
    if (!source) {
      throw invalidField(
        "MergeUpstream",
        "branch",
        `The upstream repository ${upstream.owner}/${upstream.name} has no branch ${name}`,
      );
    }
    const baseBranch = `${upstream.owner}:${name}`;
    const commits = commitMap(store);
    if (isAncestor(commits, source.sha, branch.sha)) {
      return c.json({
        message: "This branch is not behind the upstream",
        merge_type: "none",
        base_branch: baseBranch,
      });
    }
    if (isAncestor(commits, branch.sha, source.sha)) {
      moveBranch(store, branch, source.sha);
      return c.json({
        message: `Successfully fetched and fast-forwarded from upstream ${baseBranch}.`,
        merge_type: "fast-forward",
        base_branch: baseBranch,
      });
    }
    if (git.conflicts) throw new ApiFailure(409, "There are merge conflicts");
    const merge = mergeCommit(
      store,
      caller,
      commits,
      branch.sha,
      source.sha,
      `Merge branch '${name}' of ${upstream.owner}/${upstream.name}`,
    );
    moveBranch(store, branch, merge.sha);
    return c.json({
      message: `Successfully fetched and merged from upstream ${baseBranch}.`,
      merge_type: "merge",
      base_branch: baseBranch,
    });
  });

  app.post(B.merge.pattern, guard(WRITE), async (c) => {
    const caller = callerOf(c);
    const { store, repo, org, key } = repository(c, WRITE);
    refuseArchived(repo);
    requirePush(store.state, caller, org, repo);
    const body = await readBody(c);
    const base = stringField(body, "base", "Merge", true) as string;
    const head = stringField(body, "head", "Merge", true) as string;
    const message = stringField(body, "commit_message", "Merge", false);
    const target = findBranch(store, key, base);
    if (!target) {
      const pending = pendingRename(store, key, base);
      if (pending) throw renamePending(base, pending.to);
      throw new ApiFailure(404, "Base does not exist");
    }
    const commits = commitMap(store);
    const headSha = findBranch(store, key, head)?.sha ?? commitOfRepository(store, key, commits, head);
    if (!headSha) throw new ApiFailure(404, "Head does not exist");
    if (isAncestor(commits, headSha, target.sha)) return c.body(null, 204);
    if (gitRepo(store, key).conflicts) throw new ApiFailure(409, "Merge conflict");
    const merge = mergeCommit(
      store,
      caller,
      commits,
      target.sha,
      headSha,
      message ?? `Merge ${head} into ${base}`,
    );
    moveBranch(store, target, merge.sha);
    return c.json(
      {
        ...renderCommit(c, store, repo, merge),
        stats: {
          additions: merge.additions,
          deletions: merge.deletions,
          total: merge.additions + merge.deletions,
        },
        files: [],
      },
      201,
    );
  });
}

/**
 * Control routes: a push to a branch (a new commit on it; the first push to a repository without
 * commits creates its default branch), refused with 409 while a rename of the branch is finishing;
 * and the switch that makes merges needing a merge commit conflict.
 */
export function branchControls(app: Hono<ServerEnv>): void {
  app.post("/repos/:owner/:repo/branches/:branch{.+}/push", async (c) => {
    const store = c.get("store");
    const repo = findRepo(store.state, c.req.param("owner"), c.req.param("repo"));
    if (!repo) throw notFound();
    const key = repoKey(repo);
    const name = c.req.param("branch");
    const body = await readBody(c);
    const pending = pendingRename(store, key, name);
    if (pending) throw renamePending(name, pending.to);
    const git = gitRepo(store, key);
    const branch = findBranch(store, key, name);
    const firstPush =
      !branch && name === git.defaultBranch && !store.raw.branches.some((b) => b.repo === key);
    if (!branch && !firstPush) throw notFound();
    const author = body.author === undefined ? "admin" : body.author;
    if (typeof author !== "string" || !findUser(store.state, author)) {
      throw invalidField("Push", "author", "author must be the login of a user of the fixture");
    }
    const commit = newCommit(store, {
      parents: branch ? [branch.sha] : [],
      author: (findUser(store.state, author) as { login: string }).login,
      tzOffset: integer(body, "tzOffset", -720, 840, 0),
      message: stringField(body, "message", "Push", false) ?? "Push",
      additions: integer(body, "additions", 0, 1_000_000, 1),
      deletions: integer(body, "deletions", 0, 1_000_000, 0),
    });
    const statisticsWereCached = ownValue(store.raw.statisticsCache, key) !== undefined;
    if (branch) moveBranch(store, branch, commit.sha);
    else store.state.branches.push({ repo: key, name, sha: commit.sha, protected: false });
    const isDefault = name === git.defaultBranch;
    return c.json(
      {
        repository: `${repo.owner}/${repo.name}`,
        branch: name,
        sha: commit.sha,
        parents: commit.parents,
        statistics_reset: isDefault && statisticsWereCached,
      },
      201,
    );
  });

  app.put("/repos/:owner/:repo/merge-conflicts", async (c) => {
    const store = c.get("store");
    const repo = findRepo(store.state, c.req.param("owner"), c.req.param("repo"));
    if (!repo) throw notFound();
    const body = await readBody(c);
    if (typeof body.conflicts !== "boolean") {
      throw invalidField("MergeConflicts", "conflicts", "conflicts is required: true or false");
    }
    const key = repoKey(repo);
    store.state.gitRepos[key] = { ...gitRepo(store, key), conflicts: body.conflicts };
    return c.json({ repository: `${repo.owner}/${repo.name}`, conflicts: body.conflicts });
  });
}

function repository(c: Context<ServerEnv>, rule: AccessRule) {
  const store = c.get("store");
  const owner = c.req.param("owner") ?? "";
  const name = c.req.param("repo") ?? "";
  const { repo, org } = readableRepo(store.state, c.get("caller"), owner, name, rule);
  return { store, repo, org, key: repoKey(repo) };
}

function splitKey(key: string): [string, string] {
  const slash = key.indexOf("/");
  return [key.slice(0, slash), key.slice(slash + 1)];
}

/**
 * Push access: the organisation's members push to its repositories, its owners administer them
 * (docs/DECISIONS.md), and a team's or a collaborator's role counts as well (core/repo-access.ts).
 * A caller who only sees a public repository from outside cannot push to it.
 */
function requirePush(state: EmulatorState, caller: Caller, org: OrgRecord, repo: RepoRecord): void {
  if (!atLeast(repoRole(state, caller, org, repo), "push")) {
    throw forbidden("You must have push access to this repository");
  }
}

/** The default branch is renamed by admins only, and by fine-grained or app tokens with Administration write. */
function requireDefaultBranchAdmin(
  state: EmulatorState,
  caller: Caller,
  org: OrgRecord,
  repo: RepoRecord,
): void {
  if (repoRole(state, caller, org, repo) !== "admin") {
    throw forbidden("You must be an admin of this repository to rename its default branch");
  }
  if (caller.token.kind !== "classic") {
    const permissions = caller.token.permissions;
    const level = ownValue(permissions, "administration") ?? ownValue(permissions, "*");
    if (level !== "write") {
      throw forbidden("Renaming the default branch needs the Administration repository permission (write)");
    }
  }
}

function parseNewName(body: Record<string, unknown>): string {
  const value = body.new_name;
  if (value === undefined) throw missingField("Branch", "new_name");
  if (typeof value !== "string") throw invalidField("Branch", "new_name", "new_name must be a string");
  const problem = refNameProblem(value);
  if (problem)
    throw invalidField(
      "Branch",
      "new_name",
      `${JSON.stringify(value)} is not a valid branch name: ${problem}`,
    );
  return value;
}

/** A string field of a body: missing (when required) or not a non-empty string is a 422 naming it. */
function stringField(
  body: Record<string, unknown>,
  field: string,
  resource: string,
  required: boolean,
): string | undefined {
  const value = body[field];
  if (value === undefined) {
    if (required) throw missingField(resource, field);
    return undefined;
  }
  if (typeof value !== "string" || value === "") {
    throw invalidField(resource, field, `${field} must be a non-empty string`);
  }
  return value;
}

/** An integer field of a control body within `min`..`max`, or `fallback` when absent. */
function integer(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = body[field];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalidField("Push", field, `${field} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A commit of the repository named by its sha (or a prefix of at least 7 hex digits naming one). */
function commitOfRepository(
  store: Store,
  key: string,
  commits: Map<string, Readonly<StoredCommit>>,
  ref: string,
): string | undefined {
  if (!/^[0-9a-f]{7,40}$/i.test(ref)) return undefined;
  const prefix = ref.toLowerCase();
  const matches = new Set<string>();
  for (const branch of store.raw.branches) {
    if (branch.repo !== key) continue;
    for (const commit of history(commits, branch.sha))
      if (commit.sha.startsWith(prefix)) matches.add(commit.sha);
  }
  return matches.size === 1 ? [...matches][0] : undefined;
}

/** A merge commit of `head` into `base`, counting what `head` brings that `base` lacks. */
function mergeCommit(
  store: Store,
  caller: Caller,
  commits: Map<string, Readonly<StoredCommit>>,
  base: string,
  head: string,
  message: string,
): StoredCommit {
  const inBase = new Set(history(commits, base).map((c) => c.sha));
  const brought = history(commits, head).filter((c) => !inBase.has(c.sha) && c.parents.length < 2);
  return newCommit(store, {
    parents: [base, head],
    author: caller.user?.login ?? caller.token.user,
    tzOffset: 0,
    message,
    additions: brought.reduce((sum, c) => sum + c.additions, 0),
    deletions: brought.reduce((sum, c) => sum + c.deletions, 0),
  });
}
