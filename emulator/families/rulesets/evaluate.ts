/**
 * Which rulesets apply where: a ruleset's conditions against a repository (by name, or by its
 * custom property values) and a ref, as the platform evaluates them, and the rules that apply to
 * one branch (`GET /repos/{owner}/{repo}/rules/branches/{branch}`): every active branch ruleset of
 * the repository and of its organisation whose conditions hold; `evaluate` and `disabled` rulesets
 * are left out, as the description says.
 *
 * Patterns are fnmatch-like: `*` matches within a path segment, `**` across segments, `?` one
 * character; `~ALL` matches everything and `~DEFAULT_BRANCH` the repository's default branch. A
 * ref pattern without `refs/` names a branch (`main` is `refs/heads/main`). Repository names match
 * case-insensitively. An empty `include` matches nothing (names, refs); every property `include`
 * must hold and no `exclude` may.
 */
import { type ApiBranchRule, type ApiConditions, REF_ALL, REF_DEFAULT_BRANCH } from "../../../api";
import type { OrgRecord, RepoRecord } from "../../core/fixture";
import { findOrg, repoKey } from "../../core/lookup";
import type { EmulatorState, Store } from "../../core/store";
import { gitRepo } from "../git/git";
import type { StoredRuleset } from "./state";

/** A pattern as a regular expression of the whole name. */
export function patternRegExp(pattern: string, caseless = false): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, caseless ? "i" : "");
}

/** Whether a ref name condition holds for `ref` (`refs/heads/main`) of a repository whose default branch is given. */
export function refMatches(
  condition: ApiConditions["ref_name"],
  ref: string,
  defaultBranch: string,
  prefix = "refs/heads/",
): boolean {
  const matches = (pattern: string) => {
    if (pattern === REF_ALL) return true;
    if (pattern === REF_DEFAULT_BRANCH) return ref === `refs/heads/${defaultBranch}`;
    return patternRegExp(pattern.startsWith("refs/") ? pattern : `${prefix}${pattern}`).test(ref);
  };
  const include = condition?.include ?? [];
  const exclude = condition?.exclude ?? [];
  return include.some(matches) && !exclude.some(matches);
}

/** Whether an organisation ruleset's repository condition holds for `repo`. */
export function repositoryMatches(
  state: EmulatorState,
  conditions: ApiConditions | null,
  repo: RepoRecord,
): boolean {
  const byName = conditions?.repository_name;
  if (byName) {
    const matches = (p: string) => p === REF_ALL || patternRegExp(p, true).test(repo.name);
    return (byName.include ?? []).some(matches) && !(byName.exclude ?? []).some(matches);
  }
  const byProperty = conditions?.repository_property;
  if (byProperty) {
    const key = repoKey(repo);
    const values = new Map(
      state.repoPropertyValues.filter((v) => v.target === key).map((v) => [v.name.toLowerCase(), v.value]),
    );
    const holds = (spec: { name: string; property_values: string[] }) => {
      const value = values.get(spec.name.toLowerCase());
      const held = value === undefined ? [] : Array.isArray(value) ? value : [value];
      return held.some((v) => spec.property_values.includes(v));
    };
    return (byProperty.include ?? []).every(holds) && !(byProperty.exclude ?? []).some(holds);
  }
  return false;
}

/** The organisation rulesets of `org` whose repository condition holds for `repo`. */
export function orgRulesetsFor(state: EmulatorState, org: OrgRecord, repo: RepoRecord): StoredRuleset[] {
  const login = org.login.toLowerCase();
  return state.rulesets.filter(
    (r) =>
      r.scope === "org" && r.owner.toLowerCase() === login && repositoryMatches(state, r.conditions, repo),
  );
}

/** The rules that apply to branch `branch` of `repo` (it need not exist), each with its ruleset. */
export function branchRules(store: Store, repo: RepoRecord, branch: string): ApiBranchRule[] {
  const state = store.state;
  const org = findOrg(state, repo.owner);
  const key = repoKey(repo);
  const defaultBranch = gitRepo(store, key).defaultBranch;
  const ref = `refs/heads/${branch}`;
  const applies = (r: StoredRuleset) =>
    r.target === "branch" &&
    r.enforcement === "active" &&
    refMatches(r.conditions?.ref_name, ref, defaultBranch);
  const orgSets = org ? orgRulesetsFor(state, org, repo).filter(applies) : [];
  const repoSets = state.rulesets.filter((r) => r.scope === "repo" && r.owner === key && applies(r));
  return [...orgSets, ...repoSets].flatMap((r) =>
    r.rules.map((rule) => ({
      ...rule,
      ruleset_source_type: r.scope === "org" ? ("Organization" as const) : ("Repository" as const),
      ruleset_source: r.scope === "org" ? (org?.login ?? r.owner) : `${repo.owner}/${repo.name}`,
      ruleset_id: r.id,
    })),
  );
}
