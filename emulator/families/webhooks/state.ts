/** The webhook family's state: repository, organisation and global webhooks, and their recorded deliveries. */
import { rows, type StateOf } from "../../core/state";

export interface StoredHookConfig {
  url: string;
  content_type: "json" | "form";
  insecure_ssl: "0" | "1";
  secret?: string;
}

export interface StoredHook {
  id: number;
  /** `owner/repo` (lower case) for repository hooks; absent for the others. */
  repo?: string;
  /** The organisation's login (as the fixture spells it) for organisation hooks; absent for the others. */
  org?: string;
  active: boolean;
  events: string[];
  config: StoredHookConfig;
  created_at: string;
  updated_at: string;
  last_response: { code: number | null; status: string; message: string | null };
}

export interface Delivery {
  id: number;
  guid: string;
  hook_id: number;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

/** Hooks and deliveries take their ids from the shared counter. */
export const webhookState = {
  repoHooks: rows<StoredHook>(undefined, { ids: "nextId" }),
  orgHooks: rows<StoredHook>(undefined, { ids: "nextId" }),
  globalHooks: rows<StoredHook>(undefined, { ids: "nextId" }),
  deliveries: rows<Delivery>(undefined, { ids: "nextId" }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof webhookState> {}
}
