import * as pulumi from "@pulumi/pulumi";
import { declareOrganization } from "./organization";

// Needs the classic token of a site administrator (svcp_siteadmin on the sandbox server).
const config = new pulumi.Config();
export const organization = declareOrganization({
  login: config.get("login") ?? "acme-platform",
  admin: config.get("admin") ?? "olivia",
  profileName: "ACME Platform",
  // hubot is no member of the new organisation, so it may block him.
  blocked: config.get("blocked") ?? "hubot",
});
