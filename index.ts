/**
 * The demo program: the examples' resources declared together, run by `bash scripts/demo.sh`
 * against the sandbox server (see README).
 */
import * as pulumi from "@pulumi/pulumi";
import { declareWebhooks } from "./examples/webhooks/webhooks";

const config = new pulumi.Config();

export const webhooks = declareWebhooks({
  repository: "acme-eng/api",
  ciUrl: "https://ci.example.com/hooks/hosting",
  auditUrl: "https://audit.example.com/hosting",
  ciSecret: config.getSecret("ciSecret") ?? pulumi.secret("demo-signing-secret"),
});
