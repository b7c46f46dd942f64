import * as pulumi from "@pulumi/pulumi";
import { declareMemberships, type Member } from "./memberships";

const config = new pulumi.Config();
export const memberStates = declareMemberships({
  org: config.get("org") ?? "acme-eng",
  members: config.getObject<Member[]>("members") ?? [
    // Invited: pending until mona accepts. Destroying the stack removes her (or cancels the invitation).
    { username: "mona" },
    // An existing member made an admin; destroying the stack makes them a plain member again.
    { username: "octocat", role: "admin", onDestroy: "downgrade" },
    // Managed while the stack exists; destroying it leaves hubot exactly as he is.
    { username: "hubot", onDestroy: "retain" },
  ],
});
