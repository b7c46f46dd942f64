/** Branches and commits as the branch routes answer them, with their URLs. */
import type { Context } from "hono";
import { ROUTES } from "../../../api";
import type { ServerEnv } from "../../core/context";
import type { RepoRecord } from "../../core/fixture";
import { urlOf } from "../../core/http";
import { findUser } from "../../core/lookup";
import { userSummary } from "../../core/render";
import type { Store } from "../../core/store";
import { findProtection, protectionSummary } from "../branch-protection/protections";
import { commitMap } from "./git";
import type { StoredBranch, StoredCommit } from "./state";

export function repoUrl(c: Context<ServerEnv>, repo: RepoRecord): string {
  return urlOf(c, ROUTES.repositories.get, { owner: repo.owner, repo: repo.name });
}

export function htmlUrl(c: Context<ServerEnv>, repo: RepoRecord): string {
  return `${new URL(c.req.url).origin}/${repo.owner}/${repo.name}`;
}

/** The API URL of a branch: its name percent-encoded, so a slash stays in one path segment. */
export function branchUrl(c: Context<ServerEnv>, repo: RepoRecord, name: string): string {
  return urlOf(c, ROUTES.branches.get, { owner: repo.owner, repo: repo.name, branch: name });
}

/** The protection summary of a branch: its protection's status checks (branch-protection family). */
function protection(c: Context<ServerEnv>, branch: Readonly<StoredBranch>): Record<string, unknown> {
  return protectionSummary(findProtection(c.get("store").raw, branch.repo, branch.name));
}

export function renderShort(
  c: Context<ServerEnv>,
  repo: RepoRecord,
  branch: Readonly<StoredBranch>,
): Record<string, unknown> {
  const url = branchUrl(c, repo, branch.name);
  return {
    name: branch.name,
    commit: { sha: branch.sha, url: `${repoUrl(c, repo)}/commits/${branch.sha}` },
    protected: branch.protected,
    protection: protection(c, branch),
    protection_url: `${url}/protection`,
  };
}

export function renderBranch(
  c: Context<ServerEnv>,
  store: Store,
  repo: RepoRecord,
  branch: Readonly<StoredBranch>,
): Record<string, unknown> {
  const commit = commitMap(store).get(branch.sha);
  const url = branchUrl(c, repo, branch.name);
  return {
    name: branch.name,
    commit: commit ? renderCommit(c, store, repo, commit) : { sha: branch.sha },
    _links: { self: url, html: `${htmlUrl(c, repo)}/tree/${branch.name}` },
    protected: branch.protected,
    protection: protection(c, branch),
    protection_url: `${url}/protection`,
  };
}

/** A commit in the platform's commit shape (the author is also the committer; commits are unsigned). */
export function renderCommit(
  c: Context<ServerEnv>,
  store: Store,
  repo: RepoRecord,
  commit: Readonly<StoredCommit>,
): Record<string, unknown> {
  const api = repoUrl(c, repo);
  const html = htmlUrl(c, repo);
  const user = findUser(store.state, commit.author);
  const person = {
    name: user?.name ?? commit.author,
    email: `${commit.author}@users.noreply.hosting.invalid`,
    date: commit.date,
  };
  return {
    sha: commit.sha,
    node_id: Buffer.from(`Commit:${commit.sha}`).toString("base64"),
    commit: {
      author: person,
      committer: person,
      message: commit.message,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      url: `${api}/git/commits/${commit.sha}`,
      comment_count: 0,
      verification: {
        verified: false,
        reason: "unsigned",
        signature: null,
        payload: null,
        verified_at: null,
      },
    },
    url: `${api}/commits/${commit.sha}`,
    html_url: `${html}/commit/${commit.sha}`,
    comments_url: `${api}/commits/${commit.sha}/comments`,
    author: user ? userSummary(c, user) : null,
    committer: user ? userSummary(c, user) : null,
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${api}/commits/${sha}`,
      html_url: `${html}/commit/${sha}`,
    })),
  };
}
