import * as pulumi from "@pulumi/pulumi";
import { declareWebhooks } from "./webhooks";

const config = new pulumi.Config();
export const { ciHookId, ciPingUrl, securityHookId, securityDeliveriesUrl, auditHookId } = declareWebhooks({
  repository: config.get("repository") ?? "acme-eng/api",
  ciUrl: config.get("ciUrl") ?? "https://ci.example.com/hooks/hosting",
  auditUrl: config.get("auditUrl") ?? "https://audit.example.com/hosting",
  ciSecret: config.getSecret("ciSecret") ?? pulumi.secret("change-me"),
  org: config.get("org") ?? "acme-eng",
  securityUrl: config.get("securityUrl") ?? "https://security.example.com/hosting",
  securitySecret: config.getSecret("securitySecret") ?? pulumi.secret("change-me-too"),
});
