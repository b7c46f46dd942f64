/**
 * The runner group family's state: enterprise and organisation runner groups, the group each runner
 * is in, and the groups' own id counter. Every enterprise and organisation has a default group
 * holding its runners, made when a state is (`seedRunnerGroups`).
 */
import { document, type EmulatorState, map, rows, type StateOf } from "../../core/state";

export interface StoredRunnerGroup {
  id: number;
  /** An enterprise group (owner = enterprise slug) or an organisation group (owner = org login). */
  scope: "enterprise" | "org";
  owner: string;
  name: string;
  visibility: "all" | "selected" | "private";
  default: boolean;
  selectedOrganizationIds: number[];
  selectedRepositoryIds: number[];
  allowsPublicRepositories: boolean;
  restrictedToWorkflows: boolean;
  selectedWorkflows: string[];
}

/**
 * Runner group ids come from their own counter (`nextGroupId`), apart from the one hooks,
 * deliveries and invitations share (`nextId`). Both start at 1, so a group and a hook can have the
 * same id; ids are only unique within their kind, as on the platform.
 */
const FIRST_GROUP_ID = 1;

export const runnerGroupState = {
  runnerGroups: rows<StoredRunnerGroup>(undefined, { ids: "nextGroupId" }),
  /** Runner id -> the group it is in (every runner is in exactly one group). */
  runnerGroupOf: map<number>(),
  nextGroupId: document(() => FIRST_GROUP_ID),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof runnerGroupState> {}
}

/** The next runner group id. */
export function newGroupId(state: EmulatorState): number {
  return state.nextGroupId++;
}

/** The default runner group every enterprise and organisation has, holding its runners. */
export function defaultRunnerGroup(
  id: number,
  scope: StoredRunnerGroup["scope"],
  owner: string,
): StoredRunnerGroup {
  return {
    id,
    scope,
    owner,
    name: "Default",
    visibility: "all",
    default: true,
    selectedOrganizationIds: [],
    selectedRepositoryIds: [],
    allowsPublicRepositories: false,
    restrictedToWorkflows: false,
    selectedWorkflows: [],
  };
}

/** A fresh state's default groups: the enterprises' first, then the organisations', with their runners. */
export function seedRunnerGroups(state: EmulatorState): void {
  const defaultGroup = (scope: StoredRunnerGroup["scope"], owner: string) =>
    defaultRunnerGroup(newGroupId(state), scope, owner);
  for (const e of state.fixture.enterprises) state.runnerGroups.push(defaultGroup("enterprise", e.slug));
  for (const o of state.fixture.orgs) state.runnerGroups.push(defaultGroup("org", o.login));
  for (const runner of state.fixture.runners) {
    const group = state.runnerGroups.find((g) =>
      runner.org
        ? g.scope === "org" && g.owner === runner.org
        : g.scope === "enterprise" && g.owner === runner.enterprise,
    );
    if (group) state.runnerGroupOf[String(runner.id)] = group.id;
  }
}
