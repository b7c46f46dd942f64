/**
 * RunnerGroupRunners: the authoritative set of runners of one organisation runner group
 * (`PUT /orgs/{org}/actions/runner-groups/{id}/runners`). A runner is in exactly one group; runners
 * left out, and every runner of the group when this resource is destroyed, return to the
 * organisation's default group. A default group itself is refused at preview: nothing can leave it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { runnerGroupsRoutes } from "../../../api/runner-groups";
import { isNotFound, notFoundError } from "../../client/errors";
import { fields } from "../../internal/check";
import { client, notice } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { sameValue } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { resourceClass } from "../../internal/resource";
import { adoptableGroups } from "./group-api";
import { orgRunnerGroupKind } from "./org-runner-group";

// ---------------------------------------------------------------------------------------------
// Declaration (the outputs are the inputs: the PUT answers 204 with no body)
// ---------------------------------------------------------------------------------------------

export const runnerGroupRunnersKind = declareKind({
  kind: "RunnerGroupRunners",
  description:
    "The **authoritative** set of runners of one organisation runner group (a runner is in exactly one group; `PUT /orgs/{org}/actions/runner-groups/{runner_group_id}/runners`). **Destroying it returns all the group's runners to the organisation's default runner group** (the run's output says so). A default group itself is refused at preview: runners left out of it return to it, so its set cannot be declared; declare the runners of the other groups instead. Needs `admin:org` (or `organization_self_hosted_runners` write) of an owner.",
  idFormat: ["org", "runnerGroupId"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the resource.",
      replace: true,
    }),
    runnerGroupId: field(
      z
        .number({ error: "runnerGroupId must be the integer id of an organisation runner group" })
        .int("runnerGroupId must be an integer")
        .positive("runnerGroupId must be positive"),
      { description: "The organisation runner group. A change replaces the resource.", replace: true },
    ),
    runners: field(fields.idList("runners"), {
      description:
        "The runners of the group: an authoritative set. Runners not listed return to the default group; so does every runner of the group when this resource is destroyed.",
      set: true,
    }),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "org",
    what: ({ org }) => `runners of the runner groups of ${org}`,
    names: ["{org|module}-runners-{label|=group}-members"],
    // The lists say everything (the groups, then each group's runners), so nothing is read again.
    async list(c, { org = "", once }): Promise<Found[]> {
      // The same list OrgRunnerGroup reads: one request per organisation for both.
      const groups = await once("orgRunnerGroups", () =>
        adoptableGroups(c, runnerGroupsRoutes.orgRunnerGroups.list, { org }),
      );
      const found = await Promise.all(
        groups.map(async (g): Promise<Found | undefined> => {
          const runners = await readOrGone(() =>
            c.paginate(runnerGroupsRoutes.orgRunnerGroups.runners, { org, runner_group_id: g.id }),
          );
          // A group gone since it was listed, or without runners, has nothing to declare.
          if (runners === undefined || runners.length === 0) return undefined;
          return {
            id: runnerGroupRunnersKind.formatId({ org, runnerGroupId: g.id }),
            inputs: { org, runnerGroupId: g.id, runners: runners.map((r) => r.id) },
            // The group's name says which group it is; its id is the group's output where the group
            // is adopted too.
            label: g.name,
            refs: {
              runnerGroupId: {
                kind: "OrgRunnerGroup",
                id: orgRunnerGroupKind.formatId({ org, runnerGroupId: g.id }),
                output: "runnerGroupId",
              },
            },
          };
        }),
      );
      return found.filter((f) => f !== undefined);
    },
  },
});

export type RunnerGroupRunnersArgs = ArgsOf<typeof runnerGroupRunnersKind.inputs>;
export type RunnerGroupRunnersInputs = z.infer<typeof runnerGroupRunnersKind.inputs>;
/** The outputs are the inputs. */
export type RunnerGroupRunnersOutputs = OutputsOfKind<typeof runnerGroupRunnersKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const KIND = runnerGroupRunnersKind.kind;

const runnersOf = (org: string, runner_group_id: number) =>
  client().paginate(runnerGroupsRoutes.orgRunnerGroups.runners, { org, runner_group_id });

/**
 * A default group's membership cannot be declared: runners left out of it "return to the default
 * group", that is, stay, so it would drift for ever. Refused at preview, with one read of the group
 * when the group is new to this resource (none for a plain preview of an unchanged stack).
 */
async function refuseDefaultGroup(
  inputs: RunnerGroupRunnersInputs,
  olds: Partial<RunnerGroupRunnersInputs>,
): Promise<pulumi.dynamic.CheckFailure | undefined> {
  if (olds.runnerGroupId === inputs.runnerGroupId && olds.org?.toLowerCase() === inputs.org.toLowerCase()) {
    return undefined;
  }
  // A group that cannot be read now is left to create, which says why.
  const group = await client()
    .get(runnerGroupsRoutes.orgRunnerGroups.get, { org: inputs.org, runner_group_id: inputs.runnerGroupId })
    .then((r) => r.data)
    .catch(() => undefined);
  if (!group?.default) return undefined;
  return {
    property: "runnerGroupId",
    reason: `runner group ${inputs.runnerGroupId} is the default group of ${inputs.org}: runners cannot be removed from it (a runner left out returns to it), so its runners cannot be declared. Declare the runners of the other groups instead: a runner in none of them is in the default group`,
  };
}

/** PUT replaces the whole membership, so repeating it is safe and there is nothing to look for. */
async function setRunners(org: string, runner_group_id: number, runners: number[]): Promise<void> {
  const route = runnerGroupsRoutes.orgRunnerGroups.setRunners;
  await client()
    .put(route, { org, runner_group_id }, { runners })
    .catch((e: unknown) => {
      throw isNotFound(e)
        ? notFoundError({
            method: "PUT",
            path: route.path({ org, runner_group_id }),
            what: `runner group ${runner_group_id} of ${org}`,
            causes: [
              "runnerGroupId is wrong (give an OrgRunnerGroup's runnerGroupId output), or the group was deleted",
              `the token's user does not administer ${org}`,
            ],
          })
        : e;
    });
}

export const runnerGroupRunnersProvider = defineProvider<
  typeof runnerGroupRunnersKind.inputs,
  RunnerGroupRunnersOutputs
>(runnerGroupRunnersKind, {
  preflight: refuseDefaultGroup,

  async create(inputs) {
    // Adoption changes nothing it need not: a group that already holds exactly these runners is
    // taken as it is, without a write (a group that does not exist fails at the write, as before).
    const current = await readOrGone(() => runnersOf(inputs.org, inputs.runnerGroupId));
    const same =
      current !== undefined &&
      sameValue(
        current.map((r) => r.id),
        inputs.runners,
        true,
      );
    if (!same) await setRunners(inputs.org, inputs.runnerGroupId, inputs.runners);
    return {
      id: runnerGroupRunnersKind.formatId(inputs),
      outs: { ...inputs, runners: [...inputs.runners] },
    };
  },

  async read(id, props) {
    const { org, runnerGroupId } = runnerGroupRunnersKind.parseId(id);
    const runners = await readOrGone(() => runnersOf(org, runnerGroupId));
    if (!runners) return {};
    return { id, props: { org: props?.org ?? org, runnerGroupId, runners: runners.map((r) => r.id) } };
  },

  async update(_id, olds, news) {
    if (!sameValue(olds.runners, news.runners, true))
      await setRunners(news.org, news.runnerGroupId, news.runners);
    return { outs: { ...news } };
  },

  async delete(id, props) {
    await deleteIgnoringGone(async () => {
      const group = { org: props.org, runner_group_id: props.runnerGroupId };
      await client().put(runnerGroupsRoutes.orgRunnerGroups.setRunners, group, { runners: [] });
      notice(`${KIND} ${id}: its runners returned to the organisation's default runner group`);
    });
  },
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** The runners of one organisation runner group: see its declaration, `runnerGroupRunnersKind`. */
export class RunnerGroupRunners extends resourceClass<RunnerGroupRunnersArgs, RunnerGroupRunnersOutputs>(
  runnerGroupRunnersProvider,
) {}
