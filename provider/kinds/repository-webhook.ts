/** The RepositoryWebhook provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { repositoryWebhookProvider } from "../resources/webhooks";

export = repositoryWebhookProvider;
