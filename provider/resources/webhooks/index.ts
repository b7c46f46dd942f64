/** Webhooks: RepositoryWebhook and GlobalWebhook. */
export * from "./global-webhook";
export * from "./repository-webhook";
export { SECRET_SET_OUTSIDE, type WebhookArgs } from "./shared";
