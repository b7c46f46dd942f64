/**
 * What happens to a repository: made in an organisation, changed, renamed (its old name then
 * answers with a redirect, and every family's data keyed by its `owner/name` follows), archived
 * (read-only), deleted (its data moved out of reach, so a new repository of the same name starts
 * empty, as the platform keeps a deleted repository apart for restoring).
 */
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { forbidden, validationFailed } from "../../core/http";
import { findRepo, repoKey } from "../../core/lookup";
import { ownValue } from "../../core/records";
import type { RawState, Store } from "../../core/store";
import { timestamp } from "../../core/store";
import { newCommit } from "../git/git";
import { renameEverywhere } from "../organizations/rename";
import { changedSettings, defaultSettings, type RepositoryChange, settingsOf } from "./settings";

const RESOURCE = "Repository";

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The 422 of a name another repository of the owner has. */
function nameTaken(name: string) {
  return validationFailed({
    resource: RESOURCE,
    field: "name",
    code: "custom",
    message: `name ${name} already exists on this account`,
  });
}

/**
 * Makes a repository of `org` from a checked create body: its settings, its git data (the default
 * branch `main`; with `auto_init`, one commit on it), and its name taken back from any redirect an
 * earlier rename left.
 */
export function createRepository(
  store: Store,
  org: OrgRecord,
  login: string,
  change: RepositoryChange,
): RepoRecord {
  const name = change.name as string;
  if (findRepo(store.state, org.login, name)) throw nameTaken(name);
  const now = timestamp();
  const settings = changedSettings(defaultSettings(now), change, org.enterprise !== undefined, now);
  const visibility = change.visibility ?? "public";
  const repo: RepoRecord = {
    id: store.state.nextRepositoryId++,
    owner: org.login,
    name,
    private: visibility !== "public",
    environments: [],
  };
  store.state.fixture.repos.push(repo);
  store.state.repositorySettings[String(repo.id)] = settings;
  dropRedirect(store, org.login, name);
  const key = repoKey(repo);
  store.state.gitRepos[key] = { defaultBranch: "main", conflicts: false };
  if (change.autoInit) {
    const commit = newCommit(store, {
      parents: [],
      author: login,
      tzOffset: 0,
      message: "Initial commit",
      additions: 1,
      deletions: 0,
    });
    store.state.branches.push({ repo: key, name: "main", sha: commit.sha, protected: false });
  }
  // The list is a copy inside the journal's document: hand back the record it holds.
  return findRepo(store.state, org.login, name) as RepoRecord;
}

/**
 * Applies a checked update body. An archived repository takes no change but being unarchived
 * (403, the platform's message); a rename to a name the owner already has is a 422; a default
 * branch must be one of the repository's branches, unless it has none yet (the name its first push
 * will make).
 */
export function updateRepository(
  store: Store,
  repo: RepoRecord,
  org: OrgRecord,
  change: RepositoryChange,
): void {
  const { archived, ...rest } = change;
  const others = Object.entries(rest).some(([k, v]) =>
    k === "flags" ? Object.keys(v as object).length > 0 : v !== undefined,
  );
  if (repo.archived && archived !== false && others)
    throw forbidden("Repository was archived so is read-only.");
  const key = repoKey(repo);
  if (change.defaultBranch !== undefined) {
    const branches = store.raw.branches.filter((b) => b.repo === key);
    if (branches.length > 0 && !branches.some((b) => b.name === change.defaultBranch)) {
      throw validationFailed({
        resource: RESOURCE,
        field: "default_branch",
        code: "invalid",
        message: `default_branch: the repository has no branch ${change.defaultBranch}`,
      });
    }
  }
  if (change.name !== undefined && change.name !== repo.name) {
    const other = findRepo(store.state, repo.owner, change.name);
    if (other && other.id !== repo.id) throw nameTaken(change.name);
  }
  const now = timestamp();
  const settings = changedSettings(settingsOf(store.raw, repo), change, org.enterprise !== undefined, now);
  store.state.repositorySettings[String(repo.id)] = settings;
  if (change.visibility !== undefined) repo.private = change.visibility !== "public";
  if (change.defaultBranch !== undefined) {
    const git = ownValue(store.raw.gitRepos, key) ?? { defaultBranch: "main", conflicts: false };
    store.state.gitRepos[key] = { ...git, defaultBranch: change.defaultBranch };
  }
  if (archived !== undefined) repo.archived = archived;
  if (change.name !== undefined && change.name !== repo.name) renameRepository(store, repo, change.name);
}

/**
 * Renames a repository: its old name answers with a redirect to it (an older name's redirect now
 * leads here too), a redirect from the new name gives way to it, and everything the families keep
 * under its `owner/name` moves to the new one.
 */
function renameRepository(store: Store, repo: RepoRecord, name: string): void {
  const from = `${repo.owner}/${repo.name}`;
  const to = `${repo.owner}/${name}`;
  if (!sameName(from, to)) {
    dropRedirect(store, repo.owner, name);
    store.state.repositoryRedirects.push({ owner: repo.owner, name: repo.name, repoId: repo.id });
    renameEverywhere(store, { from, to });
  }
  repo.name = name;
}

/**
 * Deletes a repository: the world's record, its settings, deploy keys and redirects go; what the
 * families keep under its `owner/name` moves to a path no repository can have, so a repository
 * made later with the same name starts empty; what they keep by its id they drop
 * (`onRepositoryDeleted`: teams' access, collaborators, invitations).
 */
export function deleteRepository(store: Store, repo: RepoRecord): void {
  const id = repo.id;
  for (const family of store.model.families) family.onRepositoryDeleted?.(store, repo);
  renameEverywhere(store, { from: `${repo.owner}/${repo.name}`, to: `-deleted-${id}/${repo.name}` });
  store.state.fixture.repos = store.state.fixture.repos.filter((r) => r.id !== id);
  delete store.state.repositorySettings[String(id)];
  store.state.deployKeys = store.state.deployKeys.filter((k) => k.repoId !== id);
  store.state.repositoryRedirects = store.state.repositoryRedirects.filter((r) => r.repoId !== id);
}

/** The repository an old name of `owner` leads to, if a rename left it. */
export function redirectTarget(state: RawState, owner: string, name: string): RepoRecord | undefined {
  const redirect = state.repositoryRedirects.find((r) => sameName(r.owner, owner) && sameName(r.name, name));
  return redirect && state.fixture.repos.find((r) => r.id === redirect.repoId);
}

function dropRedirect(store: Store, owner: string, name: string): void {
  if (!store.raw.repositoryRedirects.some((r) => sameName(r.owner, owner) && sameName(r.name, name))) return;
  store.state.repositoryRedirects = store.state.repositoryRedirects.filter(
    (r) => !(sameName(r.owner, owner) && sameName(r.name, name)),
  );
}
