/** The ruleset family's state: rulesets of organisations and of repositories. */
import type { ApiBypassActor, ApiConditions, ApiRule, RulesetEnforcement, RulesetTarget } from "../../../api";
import { rows, type StateOf } from "../../core/state";

/** A ruleset as the API took it (wire form), with the platform's defaults filled in. */
export interface StoredRuleset {
  id: number;
  /** An organisation's ruleset, or a repository's. */
  scope: "org" | "repo";
  /** The organisation's login, or `owner/repo` (lower case) of the repository. */
  owner: string;
  name: string;
  target: RulesetTarget;
  enforcement: RulesetEnforcement;
  bypassActors: ApiBypassActor[];
  conditions: ApiConditions | null;
  rules: ApiRule[];
  createdAt: string;
  updatedAt: string;
}

export const rulesetState = {
  rulesets: rows<StoredRuleset>(undefined, { ids: "nextId" }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof rulesetState> {}
}
