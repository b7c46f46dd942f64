/** The OrgWebhook provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { orgWebhookProvider } from "../resources/webhooks";

export = orgWebhookProvider;
