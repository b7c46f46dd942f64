/** The GlobalWebhook provider as this module's whole export: Pulumi serialises it as a `require` of this path. */
import { globalWebhookProvider } from "../resources/webhooks";

export = globalWebhookProvider;
