/**
 * The Actions family's records, and its facts of the default fixture: an organisation secret of
 * acme-eng (`NPM_TOKEN`) and a repository secret of acme-eng/api (`DEPLOY_KEY`), so the demo and
 * `hosting-import` meet secrets they did not make (docs/sandbox.md, "Actions secrets and variables").
 */
import type { ActionsVisibility } from "../../../api";
import type { Fixture } from "../../core/fixture";

/** What a secret or variable belongs to: `org:<org id>`, `repo:<repo id>`, `env:<repo id>:<environment>`. */
export type ScopeKey = string;

export interface StoredActionsSecret {
  scope: ScopeKey;
  /** Upper-case, as the platform stores it; the path id (compared case-insensitively). */
  name: string;
  /** The plaintext the server opened; never returned by the API, read by tests through a control. */
  value: string;
  /** Organisation secrets only. */
  visibility?: ActionsVisibility;
  /** Organisation secrets with visibility `selected`. */
  selectedRepositoryIds?: number[];
  createdAt: string;
  updatedAt: string;
}

export interface StoredActionsVariable {
  scope: ScopeKey;
  /** Upper-case, as the platform stores it. */
  name: string;
  value: string;
  visibility?: ActionsVisibility;
  selectedRepositoryIds?: number[];
  createdAt: string;
  updatedAt: string;
}

declare module "../../core/fixture" {
  interface Fixture {
    /**
     * Actions secrets at start, values in clear (the server's view). Optional, as are the
     * variables: a fixture written before them (a data file's) still loads.
     */
    actionsSecrets?: StoredActionsSecret[];
    /** Actions variables at start (none in the default fixture). */
    actionsVariables?: StoredActionsVariable[];
  }
}

/** When the fixture's secrets were written. */
const FIXTURE_TIME = "2026-01-05T10:00:00Z";

export function actionsFixture(): Pick<Fixture, "actionsSecrets" | "actionsVariables"> {
  return {
    actionsSecrets: [
      {
        // acme-eng (organisation 100): every private repository may use it.
        scope: "org:100",
        name: "NPM_TOKEN",
        value: "fixture-npm-token",
        visibility: "private",
        createdAt: FIXTURE_TIME,
        updatedAt: FIXTURE_TIME,
      },
      {
        // acme-eng/api (repository 1000).
        scope: "repo:1000",
        name: "DEPLOY_KEY",
        value: "fixture-deploy-key",
        createdAt: FIXTURE_TIME,
        updatedAt: FIXTURE_TIME,
      },
    ],
    actionsVariables: [],
  };
}
