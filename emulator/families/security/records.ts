/**
 * The records of the security and review family: teams, issues with field values, pull requests,
 * dependency alerts with their advisories, manifests and the dependency graph's sources, as the
 * fixture seeds them and the state keeps them.
 */

export interface TeamRecord {
  id: number;
  /** The organisation's login. */
  org: string;
  slug: string;
  name: string;
  description: string;
  /** Logins of its members. */
  members: string[];
}

export interface IssueFieldOption {
  id: number;
  name: string;
  color: string;
}

/** A value of an issue field on one issue (spec, concepts, Issue field value). */
export interface IssueFieldValueRecord {
  fieldId: number;
  fieldName: string;
  dataType: "text" | "single_select" | "number" | "date" | "multi_select";
  /** text and date: the string; number: the number; the select types: their options below. */
  value?: string | number;
  option?: IssueFieldOption;
  options?: IssueFieldOption[];
}

/** An issue as the issue field values route sees it: present, transferred (301) or deleted (410). */
export interface IssueRecord {
  /** `owner/repo` (lower case). */
  repo: string;
  number: number;
  fieldValues: IssueFieldValueRecord[];
  /** Where a transferred issue went. */
  transferredTo?: { owner: string; repo: string; number: number };
  deleted?: boolean;
}

/** A pull request; mutable (its requested reviewers), so copied into the state. */
export interface PullRequestRecord {
  id: number;
  /** `owner/repo` (lower case). */
  repo: string;
  number: number;
  title: string;
  body: string;
  /** The author's login. */
  user: string;
  state: "open" | "closed";
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  createdAt: string;
  updatedAt: string;
  /** Logins whose review is requested, in the order they were requested. */
  requestedReviewers: string[];
  /** Team slugs whose review is requested. */
  requestedTeams: string[];
}

export type AlertState = "open" | "dismissed" | "fixed" | "auto_dismissed";
export type AlertSeverity = "low" | "medium" | "high" | "critical";

export interface AdvisoryVulnerability {
  package: { ecosystem: string; name: string };
  severity: AlertSeverity;
  vulnerable_version_range: string;
  first_patched_version: { identifier: string } | null;
}

/** The advisory as the API shows it (spec, concepts, Dependency alert: security_advisory). */
export interface AdvisoryRecord {
  ghsa_id: string;
  cve_id: string | null;
  summary: string;
  description: string;
  vulnerabilities: AdvisoryVulnerability[];
  severity: AlertSeverity;
  cvss: { vector_string: string | null; score: number };
  cvss_severities: {
    cvss_v3: { vector_string: string | null; score: number | null } | null;
    cvss_v4: { vector_string: string | null; score: number | null } | null;
  };
  /** `percentage` is a fraction (0.0215 = 2.15 %), the unit the `epss_percentage` filter takes. */
  epss: { percentage: number; percentile: number } | null;
  cwes: Array<{ cwe_id: string; name: string }>;
  identifiers: Array<{ type: "CVE" | "GHSA"; value: string }>;
  references: Array<{ url: string }>;
  published_at: string;
  updated_at: string;
  withdrawn_at: string | null;
}

/** A dependency alert of a repository; mutable (state, dismissal, assignees), so copied into the state. */
export interface DependencyAlertRecord {
  /** `owner/repo` (lower case). */
  repo: string;
  number: number;
  state: AlertState;
  dependency: {
    package: { ecosystem: string; name: string };
    manifest_path: string;
    scope: "runtime" | "development";
  };
  advisory: AdvisoryRecord;
  /** The advisory's classification (filter `classification`; not rendered: docs/DECISIONS.md). */
  classification: "general" | "malware";
  /** The vulnerability of the advisory that matches the dependency. */
  vulnerability: AdvisoryVulnerability;
  createdAt: string;
  updatedAt: string;
  dismissedAt: string | null;
  dismissedBy: string | null;
  dismissedReason: DismissedReason | null;
  dismissedComment: string | null;
  fixedAt: string | null;
  autoDismissedAt: string | null;
  /** Logins, in the order they were given. */
  assignees: string[];
  /** What the last update gave for an assigned agent (kept, not rendered). */
  agentAssignment?: { custom_instructions?: string; custom_agent?: string; model?: string };
}

export const DISMISSED_REASONS = [
  "fix_started",
  "inaccurate",
  "no_bandwidth",
  "not_used",
  "tolerable_risk",
] as const;
export type DismissedReason = (typeof DISMISSED_REASONS)[number];

/** One resolved package of a manifest, as a snapshot submits it. */
export interface ResolvedPackage {
  package_url: string;
  metadata?: Record<string, string | number | boolean | null>;
  relationship?: "direct" | "indirect";
  scope?: "runtime" | "development";
  dependencies?: string[];
}

export interface ManifestRecord {
  name: string;
  file?: { source_location?: string };
  metadata?: Record<string, string | number | boolean | null>;
  resolved?: Record<string, ResolvedPackage>;
}

/**
 * What the platform finds by itself in a repository's default branch: `static` is its own analysis
 * of manifest files, `automatic` a submission its own build workflow made. User snapshots
 * (`POST .../dependency-graph/snapshots`) override both (spec, Dependency snapshots).
 */
export interface DependencyGraphSource {
  /** `owner/repo` (lower case). */
  repo: string;
  source: "automatic" | "static";
  detector: { name: string; version: string; url: string };
  manifests: Record<string, ManifestRecord>;
}

/** The bot login that assigns an AI agent to an alert (spec: agent_assignment; `copilot` = `assistant`). */
export const AGENT_LOGIN = "assistant-swe-agent[bot]";
