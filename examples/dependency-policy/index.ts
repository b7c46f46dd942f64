import * as pulumi from "@pulumi/pulumi";
import { declareDeployHooks, enforceDependencyPolicy, parseRepository } from "./policy";

// The program is an async function: Pulumi waits for it, so the policy check finishes (or fails)
// before the first resource is declared and nothing changes while it fails.
export = async () => {
  const config = new pulumi.Config();
  const repositories = (config.getObject<string[]>("repositories") ?? ["acme-eng/api", "acme-eng/web"]).map(
    parseRepository,
  );
  await enforceDependencyPolicy(repositories);
  const hookIds = declareDeployHooks(
    repositories,
    config.get("deployUrl") ?? "https://deploy.example.com/hooks/hosting",
    config.getSecret("deploySecret") ?? pulumi.secret("example-deploy-secret"),
  );
  return { hookIds };
};
