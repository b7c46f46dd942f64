/**
 * A repository, its deploy key (the demo public key beside this file unless `deployKeyFile` says
 * another), and a reviewer's id. Needs an owner's token of the organisation.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { declareRepositories } from "./repositories";

const config = new pulumi.Config();
export const repositories = declareRepositories({
  org: config.get("org") ?? "acme-eng",
  name: config.get("name") ?? "payments",
  description: "Payments service",
  topics: ["payments", "backend"],
  deployKey: readFileSync(config.get("deployKeyFile") ?? join(__dirname, "demo-deploy.pub"), "utf8"),
  reviewer: config.get("reviewer") ?? "octocat",
});
