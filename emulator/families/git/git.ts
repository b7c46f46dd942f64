/**
 * The git data the branch and statistics routes serve: commits (one store shared by every
 * repository, as the platform's fork networks share objects), branches, the redirects earlier
 * renames left, and per repository its default branch, its upstream (a fork) and the merge-conflict
 * switch. Seeded from the fixture's relative histories when the state is created.
 */
import { createHash } from "node:crypto";

import { ApiFailure } from "../../core/http";
import { ownValue } from "../../core/records";
import type { EmulatorState, Store } from "../../core/store";
import { timestamp } from "../../core/store";
import type { GitSeed } from "./seed";
import type { GitRepo, StoredBranch, StoredCommit } from "./state";

/** A sha of 40 hex digits for `seed` (deterministic: the fixture's commits keep theirs across resets). */
export function shaOf(seed: string): string {
  return createHash("sha1").update(seed).digest("hex");
}

/** Fills the git collections of a fresh state from the fixture's seeds, ages counted back from `now`. */
export function seedGit(state: EmulatorState, seeds: readonly GitSeed[], now: number): void {
  const shas = new Map<string, string>();
  for (const seed of seeds)
    for (const commit of seed.commits) shas.set(commit.id, shaOf(`commit:${commit.id}`));
  for (const seed of seeds) {
    const key = seed.repo.toLowerCase();
    state.gitRepos[key] = {
      defaultBranch: seed.defaultBranch,
      ...(seed.upstream ? { upstream: seed.upstream.toLowerCase() } : {}),
      conflicts: false,
    };
    seed.commits.forEach((commit, i) => {
      const previous = seed.commits[i - 1];
      const parents = commit.parents ?? (previous ? [previous.id] : []);
      state.commits.push({
        sha: shas.get(commit.id) as string,
        parents: parents.map((id) => {
          const sha = shas.get(id);
          if (!sha) throw new Error(`fixture: commit ${commit.id} names an unknown parent ${id}`);
          return sha;
        }),
        author: commit.author,
        date: timestamp(new Date(now - commit.ageMinutes * 60_000)),
        tzOffset: commit.tzOffset,
        message: commit.message,
        additions: commit.additions,
        deletions: commit.deletions,
        tree: shaOf(`tree:${commit.id}`),
      });
    });
    for (const branch of seed.branches) {
      const sha = shas.get(branch.at);
      if (!sha) throw new Error(`fixture: branch ${branch.name} of ${seed.repo} names an unknown commit`);
      state.branches.push({ repo: key, name: branch.name, sha, protected: branch.protected ?? false });
    }
    for (const { from, to } of seed.renamed) state.branchRedirects.push({ repo: key, from, to });
  }
}

/** The git data of a repository (every fixture repository has some; one made later has none). */
export function gitRepo(store: Store, key: string): GitRepo {
  return ownValue(store.raw.gitRepos, key) ?? { defaultBranch: "main", conflicts: false };
}

/** How many repositories are forks of `key` (their git data names it as upstream). */
export function forkCount(store: Store, key: string): number {
  return Object.values(store.raw.gitRepos).filter((git) => git.upstream === key).length;
}

export function findBranch(store: Store, key: string, name: string): StoredBranch | undefined {
  return store.raw.branches.find((b) => b.repo === key && b.name === name);
}

/** The commit the default branch points at; undefined for a repository without commits. */
export function defaultHead(store: Store, key: string): string | undefined {
  return findBranch(store, key, gitRepo(store, key).defaultBranch)?.sha;
}

export function commitMap(store: Store): Map<string, Readonly<StoredCommit>> {
  return new Map(store.raw.commits.map((c) => [c.sha, c]));
}

/** Every commit reachable from `head`, newest first by walk order. */
export function history(
  commits: Map<string, Readonly<StoredCommit>>,
  head: string,
): Array<Readonly<StoredCommit>> {
  const seen = new Set<string>();
  const out: Array<Readonly<StoredCommit>> = [];
  const stack = [head];
  for (let sha = stack.pop(); sha !== undefined; sha = stack.pop()) {
    if (seen.has(sha)) continue;
    seen.add(sha);
    const commit = commits.get(sha);
    if (!commit) continue;
    out.push(commit);
    stack.push(...commit.parents);
  }
  return out;
}

/** Whether `ancestor` is reachable from `head` (a commit is its own ancestor). */
export function isAncestor(
  commits: Map<string, Readonly<StoredCommit>>,
  ancestor: string,
  head: string,
): boolean {
  return history(commits, head).some((c) => c.sha === ancestor);
}

/** A new commit (a push or a merge); its sha is new every time. */
export function newCommit(
  store: Store,
  fields: Omit<StoredCommit, "sha" | "tree" | "date"> & { date?: string },
): StoredCommit {
  const nonce = store.newGuid();
  const commit: StoredCommit = {
    sha: shaOf(`commit:${nonce}`),
    tree: shaOf(`tree:${nonce}`),
    date: fields.date ?? timestamp(),
    ...fields,
  };
  store.state.commits.push(commit);
  return commit;
}

/**
 * Moves a branch to `sha`. On the default branch this is what a push does to the statistics: their
 * cache is keyed by the default branch's commit, and it is reset.
 */
export function moveBranch(store: Store, branch: Readonly<StoredBranch>, sha: string): void {
  store.tracked("branches", branch).sha = sha;
  if (gitRepo(store, branch.repo).defaultBranch === branch.name) {
    delete store.state.statisticsCache[branch.repo];
  }
}

/** The job kind that finishes a branch rename. */
export const RENAME_JOB = "branches:rename";

/** The rename of `name` still being finished, if any (pushes to `name` are refused meanwhile). */
export function pendingRename(store: Store, key: string, name: string): { to: string } | undefined {
  for (const job of store.raw.jobs) {
    if (job.kind === RENAME_JOB && job.data.repo === key && job.data.from === name) {
      return { to: String(job.data.to) };
    }
  }
  return undefined;
}

/** 409 for a push (or merge) into a branch whose rename is not finished. */
export function renamePending(from: string, to: string): ApiFailure {
  return new ApiFailure(
    409,
    `Branch ${from} is being renamed to ${to}; pushes to ${from} are refused until the rename has finished`,
  );
}

/**
 * Why `name` is not a branch name git accepts (git check-ref-format), or undefined when it is.
 * The platform refuses the same names.
 */
export function refNameProblem(name: string): string | undefined {
  if (name.length === 0) return "it is empty";
  // A ref name is bytes of UTF-8 text: a lone surrogate has no UTF-8 form (nor a URL).
  if (/\p{Surrogate}/u.test(name)) return "it holds a lone surrogate, which is not text";
  if (name.length > 255) return "it is longer than 255 characters";
  if (name === "@" || name === "HEAD") return `${name} is reserved`;
  if (name.startsWith("-")) return "it starts with '-'";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what git refuses
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) {
    return "it holds a space, a control character or one of ~ ^ : ? * [ \\";
  }
  if (name.includes("..")) return "it holds '..'";
  if (name.includes("@{")) return "it holds '@{'";
  if (name.includes("//") || name.startsWith("/") || name.endsWith("/")) {
    return "it starts or ends with '/' or holds '//'";
  }
  for (const part of name.split("/")) {
    if (part.startsWith(".") || part.endsWith(".lock")) return "a part starts with '.' or ends with '.lock'";
  }
  if (name.endsWith(".")) return "it ends with '.'";
  return undefined;
}
