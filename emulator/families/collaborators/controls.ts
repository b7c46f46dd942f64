/**
 * The collaborators family's controls: what only the invited person does (accept or decline a
 * repository invitation), and a role changed in the repository's settings page, outside the API
 * and any program. They need no token.
 */
import type { Hono } from "hono";
import type { ServerEnv } from "../../core/context";
import { notFound, pathId, readBody } from "../../core/http";
import { findOrg, findRepo, findUser } from "../../core/lookup";
import { acceptInvitation, addCollaborator, dropInvitation, parsePermission } from "./collaborators";

export function collaboratorControls(app: Hono<ServerEnv>): void {
  app.post("/repository-invitations/:invitation_id/accept", (c) => {
    const state = c.get("store").state;
    const id = pathId(c, "invitation_id");
    const invitation = state.repoInvitations.find((i) => i.id === id);
    if (!invitation) throw notFound();
    const repo = state.fixture.repos.find((r) => r.id === invitation.repoId);
    const collaborator = acceptInvitation(state, invitation);
    return c.json({
      repository: repo ? `${repo.owner}/${repo.name}` : null,
      username: collaborator.login,
      permission: collaborator.permission,
    });
  });

  app.post("/repository-invitations/:invitation_id/decline", (c) => {
    const state = c.get("store").state;
    const id = pathId(c, "invitation_id");
    const invitation = state.repoInvitations.find((i) => i.id === id);
    if (!invitation) throw notFound();
    dropInvitation(state, invitation);
    return c.body(null, 204);
  });

  // An admin gives or changes someone's role in the settings page (an outsider is invited).
  app.put("/repos/:owner/:repo/collaborators/:username", async (c) => {
    const store = c.get("store");
    const repo = findRepo(store.state, c.req.param("owner") ?? "", c.req.param("repo") ?? "");
    const org = repo && findOrg(store.state, repo.owner);
    const user = findUser(store.state, c.req.param("username") ?? "");
    if (!repo || !org || !user) throw notFound();
    const permission = parsePermission((await readBody(c)).permission);
    const invitation = addCollaborator(store, org, repo, user, permission, "admin");
    return c.json({
      repository: `${repo.owner}/${repo.name}`,
      username: user.login,
      permission,
      ...(invitation ? { invitationId: invitation.id } : {}),
    });
  });
}
