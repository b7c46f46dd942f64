/**
 * Teams: an organisation's teams (nested, secret or closed, slugs from names), their members and
 * their access to repositories, which the server enforces (docs/sandbox.md, "Teams").
 */
import type { Family } from "../../core/family";
import { teamControls } from "./controls";
import { teamRoutes } from "./routes";
import { teamsState } from "./state";
import { dropRepositoryAccess, leaveTeams, teamRepoRole } from "./teams";

export const teams = {
  name: "teams",
  state: teamsState,
  routes: teamRoutes,
  controls: teamControls,
  repoRoles: teamRepoRole,
  onLeave: leaveTeams,
  onRepositoryDeleted: dropRepositoryAccess,
  // Teams keep their organisation and repositories by id: a rename moves nothing here.
} satisfies Family;
