/** The deployment protection rule family's state. */
import { rows, type StateOf } from "../../core/state";

/** A custom deployment protection rule: an app enabled on one environment of a repository. */
export interface StoredProtectionRule {
  id: number;
  /** `owner/repo` (lower case) of the repository. */
  repo: string;
  /** The environment's name as the fixture spells it. */
  environment: string;
  appId: number;
}

export const protectionRuleState = {
  protectionRules: rows<StoredProtectionRule>(undefined, { ids: "nextId" }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof protectionRuleState> {}
}
