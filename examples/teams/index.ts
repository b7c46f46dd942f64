import * as pulumi from "@pulumi/pulumi";
import type * as hosting from "pulumi-hosting";
import { declareTeam } from "./teams";

const config = new pulumi.Config();
export const team = declareTeam({
  org: config.get("org") ?? "acme-eng",
  name: config.get("name") ?? "Platform Ops",
  description: "Runs the build and deploy platform",
  members: config.getObject<hosting.TeamMemberArgs[]>("members") ?? [
    { username: "octocat", role: "maintainer" },
    // An owner of acme-eng: reported as a maintainer by the platform, compared as a member here.
    { username: "olivia", role: "member" },
  ],
  repositories: { api: "push", web: "pull" },
  child: { name: "Platform On-call", member: "octocat" },
});
