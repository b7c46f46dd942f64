/**
 * Git data and branches (docs/sandbox.md, "Branches"): histories, branches, renames, merges and
 * forks, seeded from the fixture's relative histories.
 */
import type { Family } from "../../core/family";
import { movedPath, repoPathsOf } from "../../core/org-logins";
import { seedGit } from "./git";
import { branchControls, branchRoutes } from "./routes";
import { gitFixture } from "./seed";
import { gitState } from "./state";

export const git = {
  name: "git",
  state: gitState,
  fixture: gitFixture,
  // Data files written before the fixture had git data hold a fixture without it.
  seed: (state) => seedGit(state, state.fixture.git ?? [], Date.now()),
  routes: branchRoutes,
  controls: branchControls,
  orgLogins: [
    {
      what: "the fixture's git seeds (repository and upstream owner/name)",
      move: (store, r) => {
        for (const seed of store.state.fixture.git ?? []) {
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
  ],
} satisfies Family;
