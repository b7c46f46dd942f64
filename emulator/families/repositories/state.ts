/**
 * The repositories family's state: each repository's settings (the fixture's repositories have the
 * platform's defaults until changed), the old names renamed repositories answer from, deploy keys,
 * and the counter new repositories' ids come from. The repositories themselves are the world's
 * (`fixture.repos`), where every family looks them up.
 */
import { document, map, rows, type StateOf } from "../../core/state";

/** What a repository's page shows beyond its identity, as the API writes it. */
export interface StoredRepositorySettings {
  description: string | null;
  homepage: string | null;
  /** Visible to the enterprise's members (`visibility: internal`); the world record says private. */
  internal: boolean;
  hasIssues: boolean;
  hasProjects: boolean;
  hasWiki: boolean;
  isTemplate: boolean;
  allowMergeCommit: boolean;
  allowSquashMerge: boolean;
  allowRebaseMerge: boolean;
  allowAutoMerge: boolean;
  deleteBranchOnMerge: boolean;
  allowUpdateBranch: boolean;
  /** Lower case, in the order given. */
  topics: string[];
  createdAt: string;
  updatedAt: string;
}

/** An old name of a renamed repository: it answers 301 (GET) or 307 to where the repository is now. */
export interface StoredRepositoryRedirect {
  /** The owner's login and the old name, as they were spelled. */
  owner: string;
  name: string;
  repoId: number;
}

/** A deploy key of a repository. */
export interface StoredDeployKey {
  id: number;
  repoId: number;
  title: string;
  /** `<type> <base64>` in the key's canonical form, the comment dropped (as the platform returns it). */
  key: string;
  readOnly: boolean;
  /** The login of who added it. */
  addedBy: string;
  createdAt: string;
}

export const repositoryState = {
  /** Repository id (decimal) -> settings; a repository without an entry has the defaults. */
  repositorySettings: map<StoredRepositorySettings>(),
  repositoryRedirects: rows<StoredRepositoryRedirect>(),
  deployKeys: rows<StoredDeployKey>(undefined, { ids: "nextId" }),
  /** The id of the next repository made: past every repository of the fixture. */
  nextRepositoryId: document((fixture) => fixture.repos.reduce((max, r) => Math.max(max, r.id), 0) + 1),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof repositoryState> {}
}
