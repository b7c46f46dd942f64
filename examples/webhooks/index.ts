import * as pulumi from "@pulumi/pulumi";
import { declareWebhooks } from "./webhooks";

const config = new pulumi.Config();
export const { ciHookId, ciPingUrl, auditHookId } = declareWebhooks({
  repository: config.get("repository") ?? "acme-eng/api",
  ciUrl: config.get("ciUrl") ?? "https://ci.example.com/hooks/hosting",
  auditUrl: config.get("auditUrl") ?? "https://audit.example.com/hosting",
  ciSecret: config.getSecret("ciSecret") ?? pulumi.secret("change-me"),
});
