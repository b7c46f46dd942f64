/**
 * Reading, creating, converging and deleting a runner group through the API, for either kind. A
 * kind describes itself with a typed `GroupKind` (its collection, access sub-route, owner field and
 * how its outputs are shaped); `groupMethods` gives the provider's create, read, update and delete.
 * The access list is written with the replace route only when it changed. A default group is never
 * deleted: destroy leaves it in place and says so.
 */
import { z } from "zod";
import {
  type HostingApiError,
  isHostingApiError,
  isNotFound,
  notFoundError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { itemsOf } from "../../client/pagination";
import { type ApiRunnerGroup, apiRunnerGroupSchema } from "../../client/schemas";
import { collectionReads } from "../../internal/collection-reads";
import { client, notice } from "../../internal/context";
import { sameValue } from "../../internal/diff";
import { joinId, splitId } from "../../internal/ids";
import {
  createWithoutDuplicates,
  deleteIgnoringGone,
  PartialCreateError,
  type ProviderMethods,
  readOrGone,
} from "../../internal/lifecycle";
import { SharedReads } from "../../internal/shared-reads";
import {
  type GroupOutputs,
  type GroupSettingsInputs,
  type LiveGroup,
  type LiveSettings,
  settingsBody,
  settingsFromApi,
} from "./shared";

/** How a kind's access list is written: the key of its list answer and of the replace body. */
export interface AccessList {
  items: "organizations" | "repositories";
  bodyKey: "selected_organization_ids" | "selected_repository_ids";
}

/** The paths of a kind's groups, from the route table. */
export interface GroupRoutes {
  collection(owner: string): string;
  group(owner: string, groupId: number | string): string;
  runners(owner: string, groupId: number | string): string;
  access(owner: string, groupId: number | string): string;
}

/** The paths of one group. */
interface GroupAt {
  collection: string;
  id: string;
  group: string;
  runners: string;
  access: string;
}

const groupAt = (routes: GroupRoutes, owner: string, groupId: number | string): GroupAt => ({
  collection: routes.collection(owner),
  id: String(groupId),
  group: routes.group(owner, groupId),
  runners: routes.runners(owner, groupId),
  access: routes.access(owner, groupId),
});

/** What converging aims for beyond the settings: the access list and, when managed, the runners. */
export interface Desired {
  access: number[] | undefined;
  runners: number[] | undefined;
}

/** What differs between enterprise and organisation groups, typed by the kind's inputs. */
export interface GroupKind<I extends GroupSettingsInputs> {
  kind: string;
  /** The name of the owner part of the id (`enterprise` or `org`). */
  ownerPart: string;
  access: AccessList;
  routes: GroupRoutes;
  /** The owner the values name. */
  owner(values: Partial<I>): string | undefined;
  /** The access ids and runners the values ask for (inputs) or record (outputs). */
  desired(values: Partial<I>): Desired;
  /** The kind's outputs for a live group; runners only when `live.runners` is set (managed). */
  outputs(owner: string, importId: string | undefined, live: LiveGroup): GroupOutputs<I>;
}

const idsSchema = z.object({ id: z.number().int() });

/** The ids of a list sub-route (`{total_count, organizations: [...]}`), every page. */
async function listIds(c: HostingClient, path: string, items: string): Promise<number[]> {
  const entries = await c.paginate(path, { select: itemsOf(items), schema: idsSchema });
  return entries.map((e) => e.id);
}

/**
 * Lists of groups in flight for `hosting-import`: OrgRunnerGroup and RunnerGroupRunners both list an
 * organisation's groups, and when they are discovered together they share one list. Only a list in
 * flight is shared (a fresh window of 0), so no answer from before is ever reused.
 */
const listing = new SharedReads<ApiRunnerGroup[]>(0);

/**
 * The groups of an owner that `hosting-import` adopts: every one but the default group (which is
 * there whatever the program says, and whose runners cannot be declared).
 */
export async function adoptableGroups(c: HostingClient, collection: string): Promise<ApiRunnerGroup[]> {
  const groups = await listing.read(c, collection, () =>
    c.paginate(collection, { select: itemsOf("runner_groups"), schema: apiRunnerGroupSchema }),
  );
  return groups.filter((g) => !g.default);
}

/** Live state of a group: its settings and, when relevant, its access list and runners. */
async function readGroup(
  c: HostingClient,
  at: GroupAt,
  access: AccessList,
  readRunners: boolean,
): Promise<LiveGroup> {
  // Reads of several groups of one owner in a run share the owner's list of groups.
  const api = await collectionReads.read(c, {
    collection: at.collection,
    key: at.id,
    keyOf: (g) => String(g.id),
    list: () => c.paginate(at.collection, { select: itemsOf("runner_groups"), schema: apiRunnerGroupSchema }),
    single: async () => (await c.get(at.group, { schema: apiRunnerGroupSchema })).data,
  });
  return {
    settings: settingsFromApi(api),
    access: api.visibility === "selected" ? await listIds(c, at.access, access.items) : undefined,
    runners: readRunners ? await listIds(c, at.runners, "runners") : undefined,
  };
}

function settingsDiffer(live: LiveSettings, inputs: GroupSettingsInputs): boolean {
  return (
    live.name !== inputs.name ||
    live.visibility !== inputs.visibility ||
    live.allowsPublicRepositories !== inputs.allowsPublicRepositories ||
    live.restrictedToWorkflows !== inputs.restrictedToWorkflows ||
    !sameValue(live.selectedWorkflows ?? [], inputs.selectedWorkflows ?? [], true)
  );
}

/**
 * Brings a group from `live` to `inputs` with the fewest writes: PATCH only when a setting
 * differs, the access list only when it changed, runners only when managed and changed.
 */
async function converge(
  c: HostingClient,
  at: GroupAt,
  access: AccessList,
  live: LiveGroup,
  inputs: GroupSettingsInputs,
  desired: Desired,
): Promise<LiveGroup> {
  let next = live;
  if (settingsDiffer(live.settings, inputs)) {
    const body = settingsBody(inputs);
    const api = await collectionReads.write(
      c,
      at.collection,
      async () => (await c.patch(at.group, body, { idempotent: true, schema: apiRunnerGroupSchema })).data,
    );
    next = {
      ...live,
      settings: settingsFromApi(api),
      access: api.visibility === "selected" ? live.access : undefined,
    };
  }
  if (inputs.visibility === "selected") {
    const want = desired.access ?? [];
    if (!sameValue(next.access ?? [], want, true)) await c.put(at.access, { [access.bodyKey]: want });
    next = { ...next, access: want };
  }
  if (desired.runners !== undefined && !sameValue(next.runners, desired.runners, true)) {
    await c.put(at.runners, { runners: desired.runners });
  }
  return { ...next, runners: desired.runners };
}

function nameTaken(e: unknown, kind: string, name: string): HostingApiError | undefined {
  if (!isHostingApiError(e) || e.status !== 422 || !e.errors.some((d) => d.code === "already_exists"))
    return undefined;
  return validationError(
    e,
    `a runner group named "${name}" already exists`,
    `Set importId to its id to bring it under management as a ${kind}`,
  );
}

/**
 * Creates a group, or adopts `importId`, and converges it. A new group gets everything in its POST;
 * after an ambiguous failure the group is looked for by name before trying again.
 */
async function createGroup<I extends GroupSettingsInputs>(
  k: GroupKind<I>,
  inputs: I,
): Promise<{ id: string; outs: GroupOutputs<I> }> {
  const c = client();
  const owner = k.owner(inputs) ?? "";
  const collection = k.routes.collection(owner);
  const desired = k.desired(inputs);
  const outputsOf = (live: LiveGroup) => k.outputs(owner, inputs.importId, live);
  let live: LiveGroup;
  if (inputs.importId !== undefined) {
    const at = groupAt(k.routes, owner, inputs.importId);
    live = await readGroup(c, at, k.access, desired.runners !== undefined).catch((e: unknown) => {
      throw isNotFound(e)
        ? notFoundError({
            method: "GET",
            path: at.group,
            what: `importId ${inputs.importId}`,
            causes: [
              "there is no runner group with that id (it is the number in the group's URL)",
              "the token's user does not administer its owner",
            ],
          })
        : e;
    });
  } else {
    const body = {
      ...settingsBody(inputs),
      ...(inputs.visibility === "selected" ? { [k.access.bodyKey]: desired.access ?? [] } : {}),
      ...(desired.runners !== undefined ? { runners: desired.runners } : {}),
    };
    const made = await createWithoutDuplicates(
      () =>
        collectionReads.write(
          c,
          collection,
          async () => (await c.post(collection, body, { schema: apiRunnerGroupSchema })).data,
        ),
      async () =>
        (
          await c.paginate(collection, { select: itemsOf("runner_groups"), schema: apiRunnerGroupSchema })
        ).find((g) => g.name.toLowerCase() === inputs.name.toLowerCase()),
    ).catch((e: unknown) => {
      throw nameTaken(e, k.kind, inputs.name) ?? e;
    });
    if (!made.adopted) {
      // The POST carried everything: the response plus what was sent is the state.
      const sent: LiveGroup = {
        settings: settingsFromApi(made.value),
        access: inputs.visibility === "selected" ? (desired.access ?? []) : undefined,
        runners: desired.runners,
      };
      return { id: joinId(owner, made.value.id), outs: outputsOf(sent) };
    }
    live = await readGroup(
      c,
      groupAt(k.routes, owner, made.value.id),
      k.access,
      desired.runners !== undefined,
    );
  }
  const groupId = live.settings.runnerGroupId;
  const id = joinId(owner, groupId);
  try {
    return {
      id,
      outs: outputsOf(await converge(c, groupAt(k.routes, owner, groupId), k.access, live, inputs, desired)),
    };
  } catch (e) {
    throw new PartialCreateError(id, outputsOf(live), e);
  }
}

/** The provider methods of a group kind that talk to the API. */
export function groupMethods<I extends GroupSettingsInputs>(
  k: GroupKind<I>,
): Pick<ProviderMethods<I, GroupOutputs<I>>, "create" | "read" | "update" | "delete"> & {
  adoptedId: (inputs: I) => string | undefined;
} {
  const parseId = (id: string) => {
    const [owner = "", groupId = ""] = splitId(id, [k.ownerPart, "runnerGroupId"], k.kind);
    return { owner, at: groupAt(k.routes, owner, groupId) };
  };
  return {
    adoptedId: (inputs) =>
      inputs.importId === undefined ? undefined : joinId(k.owner(inputs) ?? "", inputs.importId),
    create: (inputs) => createGroup(k, inputs),

    async read(id, props) {
      const { owner, at } = parseId(id);
      const managed = k.desired(props ?? {}).runners !== undefined;
      const live = await readOrGone(() => readGroup(client(), at, k.access, managed));
      if (!live) return {};
      return { id, props: k.outputs(k.owner(props ?? {}) ?? owner, props?.importId, live) };
    },

    async update(id, olds, news) {
      const recorded: LiveGroup = { settings: olds, ...k.desired(olds) };
      const next = await converge(client(), parseId(id).at, k.access, recorded, news, k.desired(news));
      return { outs: k.outputs(k.owner(news) ?? parseId(id).owner, news.importId, next) };
    },

    async delete(id, props) {
      if (props.isDefault) {
        notice(
          `${k.kind} ${id} is a default runner group: it cannot be deleted and was left in place (no longer managed)`,
        );
        return;
      }
      const { at } = parseId(id);
      const c = client();
      await deleteIgnoringGone(() => collectionReads.write(c, at.collection, () => c.delete(at.group)));
    },
  };
}
