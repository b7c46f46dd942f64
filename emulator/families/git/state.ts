/**
 * The git family's state: repositories' git data (default branch, upstream, switches), every commit
 * of every repository (one store shared by forks, as the platform's fork networks), branches, and
 * the old names of renamed branches. Seeded from the fixture's relative histories (`seedGit`).
 */
import { map, rows, type StateOf } from "../../core/state";

export interface StoredCommit {
  /** 40 lower-case hex digits. */
  sha: string;
  parents: string[];
  /** The login of the author, who is also the committer. */
  author: string;
  /** When it was made: ISO 8601 in UTC. */
  date: string;
  /** The author's UTC offset, minutes east of UTC. */
  tzOffset: number;
  message: string;
  additions: number;
  deletions: number;
  tree: string;
}

export interface StoredBranch {
  /** Repository key: `owner/name`, lower case. */
  repo: string;
  name: string;
  sha: string;
  protected: boolean;
}

export interface StoredRedirect {
  repo: string;
  from: string;
  to: string;
}

export interface GitRepo {
  defaultBranch: string;
  /** The repository key of the upstream of a fork. */
  upstream?: string;
  /** Control switch: merges that need a merge commit conflict (409). */
  conflicts: boolean;
}

export const gitState = {
  /** Repository key (`owner/name`, lower case) -> default branch, upstream, switches. */
  gitRepos: map<GitRepo>(undefined, { since: 3 }),
  commits: rows<StoredCommit>(undefined, { since: 3 }),
  branches: rows<StoredBranch>(undefined, { since: 3 }),
  /** Old branch names that answer 301 to the branch's current name. */
  branchRedirects: rows<StoredRedirect>(undefined, { since: 3 }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof gitState> {}
}
