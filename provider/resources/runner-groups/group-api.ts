/**
 * Reading, creating, converging and deleting a runner group through the API, for either kind. A
 * kind describes itself with a typed `GroupKind` (its collection, access sub-route, owner field and
 * how its outputs are shaped); `groupMethods` gives the provider's create, read, update and delete.
 * The access list is written with the replace route only when it changed. A default group is never
 * deleted: destroy leaves it in place and says so.
 */

import type { AnyRoute, CollectionRoutes, ListRoute } from "../../../api/route";
import type { ApiRunnerGroup } from "../../../api/runner-groups";
import {
  type HostingApiError,
  isHostingApiError,
  isNotFound,
  notFoundError,
  validationError,
} from "../../client/errors";
import type { HostingClient } from "../../client/http";
import { collectionReads } from "../../internal/collection-reads";
import { client, notice } from "../../internal/context";
import { createWithoutDuplicates, PartialCreateError } from "../../internal/creates";
import { sameValue } from "../../internal/diff";
import { deleteIgnoringGone, type ProviderMethods, readOrGone } from "../../internal/lifecycle";
import type { GroupMapping, GroupOutputs, GroupSettingsInputs, LiveGroup } from "./shared";

/** How a kind's access list is written: the key of the replace body. */
export interface AccessList {
  bodyKey: "selected_organization_ids" | "selected_repository_ids";
}

type GroupParam = { runner_group_id: number | string };

/**
 * The routes of a kind's groups, from the route table, for an owner named by parameters `O`
 * (`{enterprise}`, `{org}`): the family's routes, with its access list as `access`/`setAccess`.
 */
export interface GroupRoutes<O> extends CollectionRoutes<O, GroupParam, ApiRunnerGroup> {
  runners: ListRoute<O & GroupParam, { id: number }>;
  setRunners: AnyRoute<"PUT", O & GroupParam>;
  access: ListRoute<O & GroupParam, { id: number }>;
  setAccess: AnyRoute<"PUT", O & GroupParam>;
}

/** One group: the kind's routes and the parameters naming the group. */
interface GroupAt<O> {
  routes: GroupRoutes<O>;
  /** The owner's collection path (the key its shared reads go by). */
  collection: string;
  id: string;
  owner: O;
  group: O & GroupParam;
  settings: GroupMapping;
}

const groupAt = <I extends GroupSettingsInputs, O>(
  k: GroupKind<I, O>,
  owner: string,
  groupId: number | string,
): GroupAt<O> => ({
  routes: k.routes,
  collection: k.routes.list.path(k.ownerParams(owner)),
  id: String(groupId),
  owner: k.ownerParams(owner),
  group: { ...k.ownerParams(owner), runner_group_id: groupId },
  settings: k.settings,
});

/** What converging aims for beyond the settings: the access list and, when managed, the runners. */
export interface Desired {
  access: number[] | undefined;
  runners: number[] | undefined;
}

/** What differs between enterprise and organisation groups, typed by the kind's inputs and owner parameters. */
export interface GroupKind<I extends GroupSettingsInputs, O> {
  kind: string;
  /** The name of the owner part of the id (`enterprise` or `org`). */
  ownerPart: string;
  /** The id's parts (the kind's `parseId`): the owner's, and the group's id. */
  parseId(id: string): Readonly<Record<string, string | number>> & { runnerGroupId: number };
  /** The id of an owner's group (the kind's `formatId`). */
  idOf(owner: string, runnerGroupId: string | number): string;
  access: AccessList;
  /** The mapping of its settings (`groupMapping` of its declaration). */
  settings: GroupMapping;
  routes: GroupRoutes<O>;
  /** The route parameters naming an owner (`{org}`). */
  ownerParams(owner: string): O;
  /** The owner the values name. */
  owner(values: Partial<I>): string | undefined;
  /** The access ids and runners the values ask for (inputs) or record (outputs). */
  desired(values: Partial<I>): Desired;
  /** The kind's outputs for a live group; runners only when `live.runners` is set (managed). */
  outputs(owner: string, importId: string | undefined, live: LiveGroup): GroupOutputs<I>;
}

/** The ids of a list sub-route (`{total_count, organizations: [...]}`), every page. */
async function listIds<P>(
  c: HostingClient,
  route: ListRoute<P, { id: number }>,
  params: P,
): Promise<number[]> {
  const entries = await c.paginate(route, params);
  return entries.map((e) => e.id);
}

/** Live state of a group: its settings and, when relevant, its access list and runners. */
async function readGroup<O>(c: HostingClient, at: GroupAt<O>, readRunners: boolean): Promise<LiveGroup> {
  const { routes, group } = at;
  // Reads of several groups of one owner in a run share the owner's list of groups.
  const api = await collectionReads.read(c, {
    collection: at.collection,
    key: at.id,
    keyOf: (g) => String(g.id),
    list: () => c.paginate(routes.list, at.owner),
    single: async () => (await c.get(routes.get, group)).data,
  });
  return {
    settings: at.settings.fromApi(api),
    access: api.visibility === "selected" ? await listIds(c, routes.access, group) : undefined,
    runners: readRunners ? await listIds(c, routes.runners, group) : undefined,
  };
}

/**
 * Brings a group from `live` to `inputs` with the fewest writes: PATCH only when a setting
 * differs, the access list only when it changed, runners only when managed and changed.
 */
async function converge<O>(
  c: HostingClient,
  at: GroupAt<O>,
  access: AccessList,
  live: LiveGroup,
  inputs: GroupSettingsInputs,
  desired: Desired,
): Promise<LiveGroup> {
  let next = live;
  if (at.settings.differ(live.settings, inputs)) {
    const body = at.settings.body(inputs);
    const api = await collectionReads.write(
      c,
      at.collection,
      async () => (await c.patch(at.routes.update, at.group, body, { idempotent: true })).data,
    );
    next = {
      ...live,
      settings: at.settings.fromApi(api),
      access: api.visibility === "selected" ? live.access : undefined,
    };
  }
  if (inputs.visibility === "selected") {
    const want = desired.access ?? [];
    if (!sameValue(next.access ?? [], want, true)) {
      await c.put(at.routes.setAccess, at.group, { [access.bodyKey]: want });
    }
    next = { ...next, access: want };
  }
  if (desired.runners !== undefined && !sameValue(next.runners, desired.runners, true)) {
    await c.put(at.routes.setRunners, at.group, { runners: desired.runners });
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
async function createGroup<I extends GroupSettingsInputs, O>(
  k: GroupKind<I, O>,
  inputs: I,
): Promise<{ id: string; outs: GroupOutputs<I> }> {
  const c = client();
  const owner = k.owner(inputs) ?? "";
  const ownerParams = k.ownerParams(owner);
  const collection = k.routes.list.path(ownerParams);
  const desired = k.desired(inputs);
  const outputsOf = (live: LiveGroup) => k.outputs(owner, inputs.importId, live);
  let live: LiveGroup;
  if (inputs.importId !== undefined) {
    const at = groupAt(k, owner, inputs.importId);
    live = await readGroup(c, at, desired.runners !== undefined).catch((e: unknown) => {
      throw isNotFound(e)
        ? notFoundError({
            method: "GET",
            path: at.routes.get.path(at.group),
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
      ...k.settings.body(inputs),
      ...(inputs.visibility === "selected" ? { [k.access.bodyKey]: desired.access ?? [] } : {}),
      ...(desired.runners !== undefined ? { runners: desired.runners } : {}),
    };
    const made = await createWithoutDuplicates(
      () =>
        collectionReads.write(
          c,
          collection,
          async () => (await c.post(k.routes.create, ownerParams, body)).data,
        ),
      async () =>
        (await c.paginate(k.routes.list, ownerParams)).find(
          (g) => g.name.toLowerCase() === inputs.name.toLowerCase(),
        ),
    ).catch((e: unknown) => {
      throw nameTaken(e, k.kind, inputs.name) ?? e;
    });
    if (!made.adopted) {
      // The POST carried everything: the response plus what was sent is the state.
      const sent: LiveGroup = {
        settings: k.settings.fromApi(made.value),
        access: inputs.visibility === "selected" ? (desired.access ?? []) : undefined,
        runners: desired.runners,
      };
      return { id: k.idOf(owner, made.value.id), outs: outputsOf(sent) };
    }
    live = await readGroup(c, groupAt(k, owner, made.value.id), desired.runners !== undefined);
  }
  const groupId = live.settings.runnerGroupId;
  const id = k.idOf(owner, groupId);
  try {
    return {
      id,
      outs: outputsOf(await converge(c, groupAt(k, owner, groupId), k.access, live, inputs, desired)),
    };
  } catch (e) {
    throw new PartialCreateError(id, outputsOf(live), e);
  }
}

/** The provider methods of a group kind that talk to the API. */
export function groupMethods<I extends GroupSettingsInputs, O>(
  k: GroupKind<I, O>,
): Pick<ProviderMethods<I, GroupOutputs<I>>, "create" | "read" | "update" | "delete"> & {
  adoptedId: (inputs: I) => string | undefined;
} {
  const parseId = (id: string) => {
    const parts = k.parseId(id);
    const owner = String(parts[k.ownerPart]);
    return { owner, at: groupAt(k, owner, parts.runnerGroupId) };
  };
  return {
    adoptedId: (inputs) =>
      inputs.importId === undefined ? undefined : k.idOf(k.owner(inputs) ?? "", inputs.importId),
    create: (inputs) => createGroup(k, inputs),

    async read(id, props) {
      const { owner, at } = parseId(id);
      const managed = k.desired(props ?? {}).runners !== undefined;
      const live = await readOrGone(() => readGroup(client(), at, managed));
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
      await deleteIgnoringGone(() =>
        collectionReads.write(c, at.collection, () => c.delete(at.routes.delete, at.group)),
      );
    },
  };
}

/**
 * The groups of an owner that `hosting-import` adopts: every one but the default group (which is
 * there whatever the program says, and whose runners cannot be declared).
 */
export async function adoptableGroups<P>(
  c: HostingClient,
  route: ListRoute<P, ApiRunnerGroup>,
  params: P,
): Promise<ApiRunnerGroup[]> {
  return (await c.paginate(route, params)).filter((g) => !g.default);
}
