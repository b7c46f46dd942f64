/**
 * The environments family's state: the environments of repositories with their settings, their
 * deployment branch policies, and their custom deployment protection rules.
 */
import type { Fixture, RepoRecord } from "../../core/fixture";
import { document, rows, type StateOf } from "../../core/state";
import type { EnvironmentSeed } from "./seed";

export type ReviewerType = "User" | "Team";

/** A required reviewer as the API takes it: a user's or a team's id. */
export interface StoredReviewer {
  type: ReviewerType;
  id: number;
}

/** `deployment_branch_policy`; null means every branch may deploy. */
export interface StoredBranchPolicySettings {
  protected_branches: boolean;
  custom_branch_policies: boolean;
}

/** An environment of a repository with its built-in protection settings. */
export interface StoredEnvironment {
  id: number;
  /** `owner/repo` (lower case) of the repository. */
  repo: string;
  /** The name as it was first spelled (names compare case-insensitively). */
  name: string;
  wait_timer: number;
  prevent_self_review: boolean;
  reviewers: StoredReviewer[];
  deployment_branch_policy: StoredBranchPolicySettings | null;
  created_at: string;
  updated_at: string;
}

/** A name pattern refs must match to deploy to an environment (custom branch policies only). */
export interface StoredBranchPolicy {
  id: number;
  repo: string;
  /** The environment's name as the environment spells it. */
  environment: string;
  name: string;
  type: "branch" | "tag";
}

/** A custom deployment protection rule: an app enabled on one environment of a repository. */
export interface StoredProtectionRule {
  id: number;
  /** `owner/repo` (lower case) of the repository. */
  repo: string;
  /** The environment's name as the environment spells it. */
  environment: string;
  appId: number;
}

/** Environments of the fixture carry the time the fixture was made. */
export const FIXTURE_TIME = "2026-01-01T00:00:00Z";

/**
 * The fixture's environments: the names of each repository's `environments`, with the settings the
 * family's fixture facts give them. Their ids are derived from the repository's id and the name's
 * place (a fresh state hands out no id of the shared counter), as are those of their branch policies.
 */
function fixtureEnvironments(fixture: Fixture): StoredEnvironment[] {
  return fixture.repos.flatMap((repo) =>
    repo.environments.map((name, i): StoredEnvironment => {
      const seed = seedOf(fixture, repo, name);
      return {
        id: repo.id * 1000 + i + 1,
        repo: `${repo.owner}/${repo.name}`.toLowerCase(),
        name,
        wait_timer: seed?.waitTimer ?? 0,
        prevent_self_review: seed?.preventSelfReview ?? false,
        reviewers: seed?.reviewers?.map((r) => ({ ...r })) ?? [],
        deployment_branch_policy: seed?.deploymentBranchPolicy ? { ...seed.deploymentBranchPolicy } : null,
        created_at: FIXTURE_TIME,
        updated_at: FIXTURE_TIME,
      };
    }),
  );
}

function fixtureBranchPolicies(fixture: Fixture): StoredBranchPolicy[] {
  return fixtureEnvironments(fixture).flatMap((env) => {
    const [owner = "", name = ""] = env.repo.split("/");
    const repo = fixture.repos.find((r) => `${r.owner}/${r.name}`.toLowerCase() === `${owner}/${name}`);
    const seed = repo && seedOf(fixture, repo, env.name);
    return (seed?.branchPolicies ?? []).map((p, j) => ({
      id: env.id * 100 + j + 1,
      repo: env.repo,
      environment: env.name,
      name: p.name,
      type: p.type,
    }));
  });
}

function seedOf(fixture: Fixture, repo: RepoRecord, environment: string): EnvironmentSeed | undefined {
  const key = `${repo.owner}/${repo.name}`.toLowerCase();
  return fixture.environmentSettings?.find(
    (s) => s.repo.toLowerCase() === key && s.environment.toLowerCase() === environment.toLowerCase(),
  );
}

/**
 * Environments and their branch policies are short lists stored whole (`document`): a data file
 * written before them holds neither, and opens with the fixture's (a `rows` key absent from a data
 * file reads as empty). New environments, policies and rules take their ids from the shared
 * counter; the fixture's derive theirs (above a million), which the counter never reaches in a
 * sandbox's life.
 */
export const environmentState = {
  environments: document<StoredEnvironment[]>(fixtureEnvironments),
  branchPolicies: document<StoredBranchPolicy[]>(fixtureBranchPolicies),
  protectionRules: rows<StoredProtectionRule>(undefined, { ids: "nextId" }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof environmentState> {}
}
