/**
 * Self-hosted runner group rules shared by the routes: every runner is in exactly one group of its
 * owner (an organisation or an enterprise); a runner removed from a group returns to its owner's
 * default group; names are unique per owner; create and PATCH take the documented defaults for
 * omitted settings. The default groups themselves are created with the state (`seedRunnerGroups`).
 */
import type { RunnerRecord } from "../../core/fixture";
import { invalidField, validationFailed } from "../../core/http";
import { ownValue } from "../../core/records";
import type { EmulatorState } from "../../core/store";
import type { StoredRunnerGroup } from "./state";

export type Scope = StoredRunnerGroup["scope"];

export const RESOURCE = "RunnerGroup";
export const invalid = (field: string, message: string) => invalidField(RESOURCE, field, message);

/** The id of the group the runner is in, if the runner exists. */
export function groupIdOfRunner(state: EmulatorState, runnerId: number): number | undefined {
  return ownValue(state.runnerGroupOf, String(runnerId));
}

/** Puts the runner in the group (leaving the one it was in). */
export function assignRunner(state: EmulatorState, runnerId: number, group: StoredRunnerGroup): void {
  state.runnerGroupOf[String(runnerId)] = group.id;
}

export function assertUniqueName(
  state: EmulatorState,
  scope: Scope,
  owner: string,
  name: string,
  self: number | undefined,
): void {
  const taken = state.runnerGroups.some(
    (g) =>
      g.scope === scope && g.owner === owner && g.id !== self && g.name.toLowerCase() === name.toLowerCase(),
  );
  if (taken) {
    throw validationFailed({
      resource: RESOURCE,
      field: "name",
      code: "already_exists",
      message: "Name has already been taken",
    });
  }
}

/** The settings a create or PATCH may carry, with the documented defaults for omitted ones. */
export function settings(
  scope: Scope,
  body: Record<string, unknown>,
  current: StoredRunnerGroup | undefined,
): Pick<
  StoredRunnerGroup,
  | "visibility"
  | "allowsPublicRepositories"
  | "restrictedToWorkflows"
  | "selectedWorkflows"
  | "selectedOrganizationIds"
  | "selectedRepositoryIds"
> {
  const allowed = scope === "enterprise" ? ["all", "selected"] : ["all", "selected", "private"];
  const visibility = body.visibility ?? "all";
  if (typeof visibility !== "string" || !allowed.includes(visibility)) {
    throw invalid("visibility", `visibility must be one of ${allowed.join(", ")}`);
  }
  const bool = (field: string) => {
    const value = body[field] ?? false;
    if (typeof value !== "boolean") throw invalid(field, `${field} must be a boolean`);
    return value;
  };
  const restricted = bool("restricted_to_workflows");
  let workflows: string[] = [];
  // selected_workflows is ignored unless restricted_to_workflows is true.
  if (restricted) {
    const raw = body.selected_workflows ?? current?.selectedWorkflows ?? [];
    if (!Array.isArray(raw) || raw.some((w) => typeof w !== "string")) {
      throw invalid("selected_workflows", "selected_workflows must be an array of strings");
    }
    workflows = [...new Set(raw as string[])];
  }
  return {
    visibility: visibility as StoredRunnerGroup["visibility"],
    allowsPublicRepositories: bool("allows_public_repositories"),
    restrictedToWorkflows: restricted,
    selectedWorkflows: workflows,
    selectedOrganizationIds: current?.selectedOrganizationIds ?? [],
    selectedRepositoryIds: current?.selectedRepositoryIds ?? [],
  };
}

export function requireSelected(group: StoredRunnerGroup): void {
  if (group.visibility !== "selected") {
    throw invalid("visibility", "the runner group's visibility must be selected to set its access list");
  }
}

export function ownRunners(state: EmulatorState, group: StoredRunnerGroup): RunnerRecord[] {
  return state.fixture.runners.filter((r) =>
    group.scope === "org" ? r.org === group.owner : r.enterprise === group.owner,
  );
}

export function runnersIn(state: EmulatorState, group: StoredRunnerGroup): RunnerRecord[] {
  return ownRunners(state, group).filter((r) => groupIdOfRunner(state, r.id) === group.id);
}

export function defaultGroupOf(state: EmulatorState, group: StoredRunnerGroup): StoredRunnerGroup {
  const found = state.runnerGroups.find(
    (g) => g.scope === group.scope && g.owner === group.owner && g.default,
  );
  if (!found) throw new Error(`no default runner group for ${group.owner}`);
  return found;
}

/** Takes the runner out of the group, back to the default group; false when it is not in the group. */
export function releaseRunner(state: EmulatorState, group: StoredRunnerGroup, runnerId: number): boolean {
  if (groupIdOfRunner(state, runnerId) !== group.id) return false;
  assignRunner(state, runnerId, defaultGroupOf(state, group));
  return true;
}

/** Deletes a group that is not a default group; its runners return to the default group. */
export function deleteGroup(state: EmulatorState, group: StoredRunnerGroup): void {
  if (group.default) {
    throw validationFailed({
      resource: RESOURCE,
      code: "custom",
      message: "The default runner group cannot be deleted",
    });
  }
  setRunners(state, group, []);
  state.runnerGroups = state.runnerGroups.filter((g) => g !== group);
}

/** Makes `ids` the group's runners: newcomers move in, runners left out return to the default group. */
export function setRunners(state: EmulatorState, group: StoredRunnerGroup, ids: number[]): void {
  const fallback = defaultGroupOf(state, group);
  for (const runner of runnersIn(state, group)) {
    if (!ids.includes(runner.id)) assignRunner(state, runner.id, fallback);
  }
  for (const id of ids) assignRunner(state, id, group);
}
