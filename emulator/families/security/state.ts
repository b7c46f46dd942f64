/**
 * The security and review family's state: pull requests and dependency alerts (from the fixture,
 * changed by review requests and alert updates), submitted dependency snapshots, and security
 * managers.
 */
import { rows, type StateOf } from "../../core/state";
import type { DependencyAlertRecord, ManifestRecord, PullRequestRecord } from "./records";
import "./seed";

/** A dependency snapshot a user submitted (only the latest per correlator and detector is kept). */
export interface StoredSnapshot {
  id: number;
  /** `owner/repo` (lower case). */
  repo: string;
  version: number;
  job: { id: string; correlator: string; html_url?: string };
  sha: string;
  ref: string;
  detector: { name: string; version: string; url: string };
  metadata?: Record<string, string | number | boolean | null>;
  manifests: Record<string, ManifestRecord>;
  scanned: string;
  created_at: string;
}

/** A security manager of an organisation: reads and updates every alert of it. */
export interface StoredSecurityManager {
  /** The organisation's login (lower case). */
  org: string;
  login: string;
}

export const securityState = {
  /** Pull requests, from the fixture; review requests add to them. */
  pullRequests: rows<PullRequestRecord>((fixture) => structuredClone(fixture.pullRequests ?? []), {
    since: 3,
  }),
  /** Dependency alerts, from the fixture; updates change them. */
  dependencyAlerts: rows<DependencyAlertRecord>(
    (fixture) => structuredClone(fixture.dependencyAlerts ?? []),
    {
      since: 3,
    },
  ),
  /** User-submitted dependency snapshots. */
  dependencySnapshots: rows<StoredSnapshot>(undefined, { since: 3 }),
  /** Security managers by organisation (a control sets them). */
  securityManagers: rows<StoredSecurityManager>(undefined, { since: 3 }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof securityState> {}
}
