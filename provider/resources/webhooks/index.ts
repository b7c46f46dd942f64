/** Webhooks: RepositoryWebhook, OrgWebhook and GlobalWebhook. */
export * from "./global-webhook";
export * from "./org-webhook";
export * from "./repository-webhook";
export { SECRET_SET_OUTSIDE, type WebhookArgs } from "./shared";
