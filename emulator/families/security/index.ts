/**
 * The security and review family: dependency alerts and snapshots, issue field values, review
 * requests, security managers (docs/sandbox.md).
 */
import type { Family } from "../../core/family";
import { isOrg, movedPath, repoPathsOf } from "../../core/org-logins";
import { securityControls, securityRoutes } from "./routes";
import { securityFixture } from "./seed";
import { securityState } from "./state";

export const security = {
  name: "security",
  state: securityState,
  fixture: securityFixture,
  routes: securityRoutes,
  controls: securityControls,
  orgLogins: [
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
  ],
} satisfies Family;
