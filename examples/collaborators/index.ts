import * as pulumi from "@pulumi/pulumi";
import { declareCollaborators, declareRepositoryAccess } from "./collaborators";

const config = new pulumi.Config();
const owner = config.get("owner") ?? "acme-eng";

// hubot is outside acme-eng: invited, pending until he accepts. octocat, a member, gets the role at once.
export const invitations = declareCollaborators({
  owner,
  repository: "web",
  collaborators: { hubot: "triage", octocat: "maintain" },
});

// Everyone with direct access to acme-eng/api: one person and one team. A person or team given
// access by hand is named by `pulumi preview --refresh` and removed by the next `pulumi up`.
export const access = declareRepositoryAccess({
  owner,
  repository: "api",
  users: [{ username: "octocat", permission: "push" }],
  teams: [{ teamSlug: "platform", permission: "pull" }],
}).urn;
