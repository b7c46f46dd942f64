/**
 * Webhooks as code: a CI hook on a repository, a security hook on an organisation and an audit hook
 * on the whole installation. Used by this example's program and by the root demo.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as hosting from "pulumi-hosting";

export interface WebhookSettings {
  /** Repository to hook, as `owner/name`. */
  repository: string;
  ciUrl: string;
  auditUrl: string;
  /** Signing secret of the CI hook (kept as a secret in state). */
  ciSecret: pulumi.Input<string>;
  /** The organisation whose events the security hook hears, where, and its signing secret. */
  org: string;
  securityUrl: string;
  securitySecret: pulumi.Input<string>;
}

export function declareWebhooks(settings: WebhookSettings) {
  const [owner = "", repository = ""] = settings.repository.split("/");
  const ci = new hosting.RepositoryWebhook("ci", {
    owner,
    repository,
    url: settings.ciUrl,
    contentType: "json",
    secret: settings.ciSecret,
    events: ["push", "pull_request"],
  });
  // Every repository of the organisation, and its own events (members, teams, the organisation).
  const security = new hosting.OrgWebhook("security", {
    org: settings.org,
    url: settings.securityUrl,
    contentType: "json",
    secret: settings.securitySecret,
    events: ["organization", "member", "membership", "team", "repository"],
  });
  const audit = new hosting.GlobalWebhook("audit", {
    url: settings.auditUrl,
    events: ["organization", "user", "repository", "membership"],
  });
  return {
    ciHookId: ci.hookId,
    ciPingUrl: ci.pingUrl,
    securityHookId: security.hookId,
    securityDeliveriesUrl: security.deliveriesUrl,
    auditHookId: audit.hookId,
  };
}
