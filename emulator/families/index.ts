/**
 * The family list: every family of the sandbox, in the order their routes are matched (a family
 * registers itself with one line here), and what is made from the list: the default fixture and
 * the state model.
 */
import type { Family } from "../core/family";
import { baseFixture, type Fixture } from "../core/fixture";
import { type EmulatorState, StateModel } from "../core/state";
import { actions } from "./actions";
import { branchProtection } from "./branch-protection";
import { budgets } from "./budgets";
import { collaborators } from "./collaborators";
import { propertyValues } from "./custom-properties";
import { environments } from "./environments";
import { git } from "./git";
import { memberships } from "./memberships";
import { meta } from "./meta";
import { notifications } from "./notifications";
import { orgConfig } from "./org-config";
import { orgRoles } from "./org-roles";
import { orgAdmin } from "./organizations";
import { privateRegistries } from "./private-registries";
import { repositories } from "./repositories";
import { rulesets } from "./rulesets";
import { runnerGroups } from "./runner-groups";
import { security } from "./security";
import { statistics } from "./statistics";
import { teams } from "./teams";
import { unmodelled } from "./unmodelled";
import { userKeys } from "./user-keys";
import { webhooks } from "./webhooks";

/**
 * Each family's own type, not `Family`, is kept in the list: the declaration files of the package
 * then load every family's `state.ts` and `seed.ts`, whose declarations make `EmulatorState` and
 * `Fixture` whole for a program that imports `pulumi-hosting/emulator`.
 */
export const FAMILIES = [
  meta,
  webhooks,
  memberships,
  runnerGroups,
  propertyValues,
  environments,
  budgets,
  privateRegistries,
  userKeys,
  notifications,
  orgAdmin,
  statistics,
  // Before git: its `/branches/:branch{.+}` would take `main/protection` for a branch's name.
  branchProtection,
  git,
  security,
  orgConfig,
  actions,
  repositories,
  teams,
  collaborators,
  rulesets,
  orgRoles,
  // After every family: the routes none of them serves answer 501 after their auth check.
  unmodelled,
] as const satisfies readonly Family[];

/** The default fixture (DESIGN.md, README): the world, and each family's facts. */
export function defaultFixture(): Fixture {
  let fixture = baseFixture();
  for (const family of FAMILIES)
    if ("fixture" in family && family.fixture) fixture = { ...fixture, ...family.fixture() };
  return fixture;
}

/** The state of every family. */
export const SANDBOX_MODEL = new StateModel(FAMILIES, defaultFixture);

/** A fresh state of `fixture` (the default fixture when none is given). */
export function freshState(fixture: Fixture = defaultFixture()): EmulatorState {
  return SANDBOX_MODEL.fresh(fixture);
}
