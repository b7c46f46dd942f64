/**
 * The git family's facts of the default fixture: branches, histories, earlier renames and forks of
 * the fixture's repositories. Commit times are ages, made absolute when a state is made (`seedGit`),
 * so the statistics windows hold data whatever the date.
 */
import type { Fixture } from "../../core/fixture";

/** One commit of a seeded history. */
export interface SeedCommit {
  /** The name branches and other commits use for it; unique across the fixture. */
  id: string;
  /** The login of the author (and committer). */
  author: string;
  /** How long before the state is created the commit was made, in minutes. */
  ageMinutes: number;
  /** The author's UTC offset in minutes east of UTC (`-420` is UTC-07:00). */
  tzOffset: number;
  additions: number;
  deletions: number;
  message: string;
  /** Parent ids; absent: the commit listed just before it (none for the first of a history). */
  parents?: string[];
}

/** A repository's git data in the fixture. */
export interface GitSeed {
  /** `owner/name`. */
  repo: string;
  defaultBranch: string;
  /** The repository this one is a fork of (`owner/name`): what merge-upstream syncs from. */
  upstream?: string;
  /** Its own commits, oldest first (a fork shares its upstream's commits). */
  commits: SeedCommit[];
  /** Branches and the commit id each points at. */
  branches: Array<{ name: string; at: string; protected?: boolean }>;
  /** Renames done before: the old name answers 301 to the new one. */
  renamed: Array<{ from: string; to: string }>;
}

declare module "../../core/fixture" {
  interface Fixture {
    /**
     * The git data of repositories (branches, commit histories, earlier renames, forks), which the
     * branch and statistics routes serve. Optional: a fixture written before it has none.
     */
    git?: GitSeed[];
  }
}

/** UTC offsets of the fixture's commit authors, so punch cards differ from UTC. */
const AUTHOR_OFFSETS: ReadonlyArray<[login: string, tzOffset: number]> = [
  ["olivia", 120],
  ["octocat", -420],
  ["admin", 0],
  ["mona", 330],
  ["hubot", -180],
];

const WEEK_MINUTES = 7 * 24 * 60;

/**
 * acme-eng/api's history: 48 commits on main, one a week or so over the last 48 weeks, by the five
 * authors in turn, each in their own time zone; every eighth a merge of a side commit; #20 empty.
 * Then two commits of `develop` ahead of main. Deterministic, so tests can recompute it.
 */
function apiHistory(): SeedCommit[] {
  const commits: SeedCommit[] = [];
  for (let k = 0; k < 48; k++) {
    const [author, tzOffset] = AUTHOR_OFFSETS[k % AUTHOR_OFFSETS.length] as [string, number];
    const ageMinutes = (47 - k) * WEEK_MINUTES + ((k * 397) % 5000) + 120;
    if (k % 8 === 7) {
      const [sideAuthor, sideOffset] = AUTHOR_OFFSETS[(k + 2) % AUTHOR_OFFSETS.length] as [string, number];
      commits.push({
        id: `api-side-${k}`,
        author: sideAuthor,
        ageMinutes: ageMinutes + 60,
        tzOffset: sideOffset,
        additions: 5 + k,
        deletions: k % 7,
        message: `Feature work ${k}`,
        parents: [`api-${k - 2}`],
      });
      commits.push({
        id: `api-${k}`,
        author,
        ageMinutes,
        tzOffset,
        additions: 5 + k,
        deletions: k % 7,
        message: `Merge branch 'feature-${k}'`,
        parents: [`api-${k - 1}`, `api-side-${k}`],
      });
      continue;
    }
    const empty = k === 20;
    commits.push({
      id: `api-${k}`,
      author,
      ageMinutes,
      tzOffset,
      additions: empty ? 0 : 10 + ((k * 37) % 200),
      deletions: empty ? 0 : (k * 13) % 50,
      message: empty ? "Empty commit to trigger CI" : `Change ${k}`,
      ...(k === 0 ? {} : { parents: [`api-${k - 1}`] }),
    });
  }
  commits.push(
    {
      id: "api-dev-1",
      author: "octocat",
      ageMinutes: 90,
      tzOffset: -420,
      additions: 12,
      deletions: 3,
      message: "Start the next feature",
      parents: ["api-47"],
    },
    {
      id: "api-dev-2",
      author: "mona",
      ageMinutes: 60,
      tzOffset: 330,
      additions: 30,
      deletions: 8,
      message: "Continue the next feature",
    },
  );
  return commits;
}

/** Branches and histories of the fixture's repositories. */
function defaultGit(): GitSeed[] {
  return [
    {
      repo: "acme-eng/api",
      defaultBranch: "main",
      commits: apiHistory(),
      branches: [
        { name: "main", at: "api-47", protected: true },
        { name: "develop", at: "api-dev-2" },
        { name: "release/1.0", at: "api-30" },
      ],
      renamed: [{ from: "legacy", to: "develop" }],
    },
    {
      repo: "acme-eng/web",
      defaultBranch: "main",
      commits: [
        {
          id: "web-0",
          author: "olivia",
          ageMinutes: 30 * 24 * 60,
          tzOffset: 120,
          additions: 120,
          deletions: 0,
          message: "Initial commit",
        },
      ],
      branches: [{ name: "main", at: "web-0" }],
      renamed: [],
    },
    // A private fork of acme-eng/api, made when api's main was at #40: behind its upstream.
    {
      repo: "acme-ops/infra",
      defaultBranch: "main",
      upstream: "acme-eng/api",
      commits: [],
      branches: [{ name: "main", at: "api-40" }],
      renamed: [],
    },
    // No commits: statistics answer 204, participation 404, and there is no branch.
    { repo: "acme-eng/empty", defaultBranch: "main", commits: [], branches: [], renamed: [] },
  ];
}

export function gitFixture(): Pick<Fixture, "git"> {
  return { git: defaultGit() };
}
