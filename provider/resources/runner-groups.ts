/**
 * Self-hosted runner groups: EnterpriseRunnerGroup (`/enterprises/{enterprise}/actions/runner-groups`),
 * OrgRunnerGroup (`/orgs/{org}/actions/runner-groups`) and RunnerGroupRunners (the authoritative
 * set of runners of one organisation group).
 *
 * Id lists and workflow lists compare as sets, so a reordering on the server is never drift.
 * Organisation (or repository) access is written with the replace route only when it changed.
 * A default group is never deleted: destroy leaves it in place and says so.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { HostingApiError, isHostingApiError, isNotFound } from "../client/errors";
import type { HostingClient } from "../client/http";
import { type ApiRunnerGroup, apiRunnerGroupSchema, apiRunnerSchema } from "../client/schemas";
import { type CrossFieldRules, checkInputs, fields } from "../internal/check";
import { client, notice } from "../internal/context";
import { diffFields, type FieldRules, sameValue } from "../internal/diff";
import { joinId, splitId } from "../internal/ids";
import {
  compact,
  createWithoutDuplicates,
  type HostingProvider,
  inputsFrom,
  PartialCreateError,
  parseResponse,
  resourceProps,
} from "../internal/provider";
import { shimFor } from "../internal/shim";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

interface RunnerGroupArgsBase {
  /** The group's name, unique within its owner. A rename updates in place. */
  name: pulumi.Input<string>;
  /** Whether public repositories may use the group's runners. Default false. */
  allowsPublicRepositories?: pulumi.Input<boolean>;
  /** Limit the group to the workflows in `selectedWorkflows`. Default false. */
  restrictedToWorkflows?: pulumi.Input<boolean>;
  /**
   * Workflow references (`owner/repo/.github/workflows/ci.yml@main`) allowed to use the group;
   * compared as a set. Only with `restrictedToWorkflows: true`.
   */
  selectedWorkflows?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Adopt the existing group with this id instead of creating one (e.g. the default group); it is
   * converged to these args. Only read at create.
   */
  importId?: pulumi.Input<string | number>;
}

export interface EnterpriseRunnerGroupArgs extends RunnerGroupArgsBase {
  /** The enterprise slug. A change replaces the group. */
  enterprise: pulumi.Input<string>;
  /** `"all"` organisations of the enterprise, or the `"selected"` ones. Default `"all"`. */
  visibility?: pulumi.Input<"all" | "selected">;
  /** Ids of the organisations that may use the group; a set. Only with visibility `"selected"`. */
  selectedOrganizationIds?: pulumi.Input<pulumi.Input<number>[]>;
  /**
   * Ids of the enterprise runners in the group; an authoritative set (runners left out return to
   * the default group). When absent, the group's runners are not managed.
   */
  runners?: pulumi.Input<pulumi.Input<number>[]>;
}

export interface OrgRunnerGroupArgs extends RunnerGroupArgsBase {
  /** The organisation. A change replaces the group. */
  org: pulumi.Input<string>;
  /** `"all"` repositories, the `"selected"` ones, or `"private"` repositories only. Default `"all"`. */
  visibility?: pulumi.Input<"all" | "selected" | "private">;
  /** Ids of the repositories that may use the group; a set. Only with visibility `"selected"`. */
  selectedRepositoryIds?: pulumi.Input<pulumi.Input<number>[]>;
}

export interface RunnerGroupRunnersArgs {
  /** The organisation. A change replaces the resource. */
  org: pulumi.Input<string>;
  /** The organisation runner group. A change replaces the resource. */
  runnerGroupId: pulumi.Input<number>;
  /**
   * The runners of the group: an authoritative set. Runners not listed return to the default group;
   * so does every runner of the group when this resource is destroyed.
   */
  runners: pulumi.Input<pulumi.Input<number>[]>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check)
// ---------------------------------------------------------------------------------------------

const groupInputs = {
  name: z
    .string({ error: "name is required: the runner group's name" })
    .trim()
    .min(1, "name must not be empty"),
  allowsPublicRepositories: z.boolean({ error: "allowsPublicRepositories must be a boolean" }).default(false),
  restrictedToWorkflows: z.boolean({ error: "restrictedToWorkflows must be a boolean" }).default(false),
  selectedWorkflows: z
    .array(z.string().min(1, "selectedWorkflows must not hold empty strings"), {
      error: "selectedWorkflows must be a list of workflow references",
    })
    .optional(),
  importId: fields.numericId("importId").optional(),
};

export const enterpriseRunnerGroupInputs = z.object({
  enterprise: fields.name("enterprise"),
  ...groupInputs,
  visibility: z
    .enum(["all", "selected"], { error: 'visibility must be one of "all", "selected"' })
    .default("all"),
  selectedOrganizationIds: fields.idList("selectedOrganizationIds").optional(),
  runners: fields.idList("runners").optional(),
});

export const orgRunnerGroupInputs = z.object({
  org: fields.name("org"),
  ...groupInputs,
  visibility: z
    .enum(["all", "selected", "private"], { error: 'visibility must be one of "all", "selected", "private"' })
    .default("all"),
  selectedRepositoryIds: fields.idList("selectedRepositoryIds").optional(),
});

export const runnerGroupRunnersInputs = z.object({
  org: fields.name("org"),
  runnerGroupId: z
    .number({ error: "runnerGroupId must be the integer id of an organisation runner group" })
    .int("runnerGroupId must be an integer")
    .positive("runnerGroupId must be positive"),
  runners: fields.idList("runners"),
});

export type EnterpriseRunnerGroupInputs = z.infer<typeof enterpriseRunnerGroupInputs>;
export type OrgRunnerGroupInputs = z.infer<typeof orgRunnerGroupInputs>;
export type RunnerGroupRunnersInputs = z.infer<typeof runnerGroupRunnersInputs>;

interface GroupState {
  runnerGroupId: number;
  isDefault: boolean;
  runnersUrl: string;
}
export type EnterpriseRunnerGroupOutputs = EnterpriseRunnerGroupInputs & GroupState;
export type OrgRunnerGroupOutputs = OrgRunnerGroupInputs & GroupState;
export type RunnerGroupRunnersOutputs = RunnerGroupRunnersInputs;

type AccessField = "selectedOrganizationIds" | "selectedRepositoryIds";

/**
 * Cross-field rules: access ids only with visibility "selected" (then defaulting to []), workflows
 * only with restrictedToWorkflows (then defaulting to []). Skipped while a field is unknown.
 */
function groupRules<
  T extends { visibility: string; restrictedToWorkflows: boolean; selectedWorkflows?: string[] | undefined },
>(access: AccessField): CrossFieldRules<T> {
  return (inputs, pending) => {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const record = inputs as Record<string, unknown>;
    if (!pending.has("visibility") && !pending.has(access)) {
      const ids = record[access] as number[] | undefined;
      if (inputs.visibility === "selected") record[access] = ids ?? [];
      else if (ids !== undefined && ids.length > 0) {
        failures.push({
          property: access,
          reason: `${access} is allowed only with visibility "selected"; got visibility "${inputs.visibility}"`,
        });
      } else delete record[access];
    }
    if (!pending.has("restrictedToWorkflows") && !pending.has("selectedWorkflows")) {
      if (inputs.restrictedToWorkflows) inputs.selectedWorkflows = inputs.selectedWorkflows ?? [];
      else if (inputs.selectedWorkflows !== undefined && inputs.selectedWorkflows.length > 0) {
        failures.push({
          property: "selectedWorkflows",
          reason: "selectedWorkflows is allowed only with restrictedToWorkflows: true",
        });
      } else delete inputs.selectedWorkflows;
    }
    return failures;
  };
}

// ---------------------------------------------------------------------------------------------
// API <-> state
// ---------------------------------------------------------------------------------------------

/** The settings part of a group as the server has it (ids come from sub-routes). */
function settingsFromApi(api: ApiRunnerGroup) {
  const restricted = api.restricted_to_workflows ?? false;
  return compact({
    name: api.name,
    visibility: api.visibility,
    allowsPublicRepositories: api.allows_public_repositories ?? false,
    restrictedToWorkflows: restricted,
    selectedWorkflows: restricted ? (api.selected_workflows ?? []) : undefined,
    runnerGroupId: api.id,
    isDefault: api.default ?? false,
    runnersUrl: api.runners_url ?? "",
  });
}

/** The PATCH body: every setting, since omitted ones are reset to their defaults. */
function settingsBody(inputs: EnterpriseRunnerGroupInputs | OrgRunnerGroupInputs): Record<string, unknown> {
  return {
    name: inputs.name,
    visibility: inputs.visibility,
    allows_public_repositories: inputs.allowsPublicRepositories,
    restricted_to_workflows: inputs.restrictedToWorkflows,
    ...(inputs.restrictedToWorkflows ? { selected_workflows: inputs.selectedWorkflows ?? [] } : {}),
  };
}

function settingsDiffer(
  live: Record<string, unknown>,
  inputs: EnterpriseRunnerGroupInputs | OrgRunnerGroupInputs,
): boolean {
  return (
    live.name !== inputs.name ||
    live.visibility !== inputs.visibility ||
    live.allowsPublicRepositories !== inputs.allowsPublicRepositories ||
    live.restrictedToWorkflows !== inputs.restrictedToWorkflows ||
    !sameValue(live.selectedWorkflows ?? [], inputs.selectedWorkflows ?? [], true)
  );
}

// ---------------------------------------------------------------------------------------------
// Replace-on-change
// ---------------------------------------------------------------------------------------------

const groupFieldRules = {
  name: {},
  visibility: {},
  allowsPublicRepositories: {},
  restrictedToWorkflows: {},
  selectedWorkflows: { set: true },
  importId: { createOnly: true },
};

export const enterpriseRunnerGroupRules: FieldRules<EnterpriseRunnerGroupInputs> = {
  enterprise: { replace: true },
  selectedOrganizationIds: { set: true },
  runners: { set: true },
  ...groupFieldRules,
};

export const orgRunnerGroupRules: FieldRules<OrgRunnerGroupInputs> = {
  org: { replace: true },
  selectedRepositoryIds: { set: true },
  ...groupFieldRules,
};

export const runnerGroupRunnersRules: FieldRules<RunnerGroupRunnersInputs> = {
  org: { replace: true },
  runnerGroupId: { replace: true },
  runners: { set: true },
};

// ---------------------------------------------------------------------------------------------
// Providers
// ---------------------------------------------------------------------------------------------

type GroupInputs = EnterpriseRunnerGroupInputs | OrgRunnerGroupInputs;

/** What differs between enterprise and organisation groups; everything else is shared. */
interface GroupFamily {
  kind: "EnterpriseRunnerGroup" | "OrgRunnerGroup";
  ownerField: "enterprise" | "org";
  collection(owner: string): string;
  access: { field: AccessField; route: "organizations" | "repositories"; bodyKey: string; items: string };
  managesRunners: boolean;
  schema: z.ZodObject;
  rules: FieldRules<Record<string, unknown>>;
}

const ENTERPRISE_FAMILY: GroupFamily = {
  kind: "EnterpriseRunnerGroup",
  ownerField: "enterprise",
  collection: (enterprise) => `/enterprises/${encodeURIComponent(enterprise)}/actions/runner-groups`,
  access: {
    field: "selectedOrganizationIds",
    route: "organizations",
    bodyKey: "selected_organization_ids",
    items: "organizations",
  },
  managesRunners: true,
  schema: enterpriseRunnerGroupInputs,
  rules: enterpriseRunnerGroupRules as FieldRules<Record<string, unknown>>,
};

const ORG_FAMILY: GroupFamily = {
  kind: "OrgRunnerGroup",
  ownerField: "org",
  collection: (org) => `/orgs/${encodeURIComponent(org)}/actions/runner-groups`,
  access: {
    field: "selectedRepositoryIds",
    route: "repositories",
    bodyKey: "selected_repository_ids",
    items: "repositories",
  },
  managesRunners: false,
  schema: orgRunnerGroupInputs,
  rules: orgRunnerGroupRules as FieldRules<Record<string, unknown>>,
};

const idList = (items: string) => z.object({ [items]: z.array(z.object({ id: z.number().int() })) });

async function listIds(c: HostingClient, path: string, items: string): Promise<number[]> {
  const entries = await c.paginate<unknown>(path, {
    select: (body) => (body as Record<string, unknown>)?.[items] as unknown[],
  });
  return parseResponse(idList(items), { [items]: entries }, "GET", path)[items]?.map((e) => e.id) ?? [];
}

async function getGroup(c: HostingClient, path: string): Promise<ApiRunnerGroup> {
  return parseResponse(apiRunnerGroupSchema, (await c.get(path)).data, "GET", path);
}

function ownerOf(family: GroupFamily, inputs: GroupInputs): string {
  return (inputs as unknown as Record<string, string>)[family.ownerField] ?? "";
}

/** Live state of a group: its settings and, when relevant, its access list and runners. */
async function readGroup(
  c: HostingClient,
  family: GroupFamily,
  path: string,
  readRunners: boolean,
): Promise<Record<string, unknown>> {
  const api = await getGroup(c, path);
  const live: Record<string, unknown> = settingsFromApi(api);
  if (api.visibility === "selected")
    live[family.access.field] = await listIds(c, `${path}/${family.access.route}`, family.access.items);
  if (family.managesRunners && readRunners) live.runners = await listIds(c, `${path}/runners`, "runners");
  return live;
}

/**
 * Brings a group from `live` to `inputs` with the fewest writes: PATCH only when a setting
 * differs, the access list only when it changed, runners only when managed and changed.
 */
async function converge(
  c: HostingClient,
  family: GroupFamily,
  path: string,
  live: Record<string, unknown>,
  inputs: GroupInputs,
): Promise<Record<string, unknown>> {
  let next = live;
  if (settingsDiffer(live, inputs)) {
    const api = parseResponse(
      apiRunnerGroupSchema,
      (await c.patch(path, settingsBody(inputs), { idempotent: true })).data,
      "PATCH",
      path,
    );
    next = {
      ...settingsFromApi(api),
      ...(api.visibility === "selected" ? { [family.access.field]: live[family.access.field] } : {}),
      runners: live.runners,
    };
  }
  const desiredAccess = (inputs as Record<string, unknown>)[family.access.field] as number[] | undefined;
  if (inputs.visibility === "selected") {
    const current =
      next.visibility === "selected" ? ((next[family.access.field] as number[] | undefined) ?? []) : [];
    if (!sameValue(current, desiredAccess ?? [], true)) {
      await c.put(`${path}/${family.access.route}`, { [family.access.bodyKey]: desiredAccess ?? [] });
    }
    next[family.access.field] = desiredAccess ?? [];
  }
  const desiredRunners = (inputs as Record<string, unknown>).runners as number[] | undefined;
  if (family.managesRunners && desiredRunners !== undefined) {
    if (!sameValue(next.runners, desiredRunners, true))
      await c.put(`${path}/runners`, { runners: desiredRunners });
    next.runners = desiredRunners;
  }
  return next;
}

function outputsOf<I extends GroupInputs>(
  family: GroupFamily,
  owner: string,
  importId: string | undefined,
  live: Record<string, unknown>,
  managedRunners: boolean,
): I & GroupState {
  const { runners, ...rest } = live;
  return compact({
    [family.ownerField]: owner,
    importId,
    ...rest,
    ...(family.managesRunners && managedRunners ? { runners } : {}),
  }) as I & GroupState;
}

function nameTaken(e: unknown, family: GroupFamily, name: string): HostingApiError | undefined {
  if (!isHostingApiError(e) || e.status !== 422 || !e.errors.some((d) => d.code === "already_exists"))
    return undefined;
  return new HostingApiError({
    code: "validation_failed",
    status: 422,
    ...(e.method ? { method: e.method } : {}),
    ...(e.path ? { path: e.path } : {}),
    apiMessage: `a runner group named "${name}" already exists`,
    hint: `Set importId to its id to bring it under management as a ${family.kind}`,
  });
}

function runnerGroupProvider<I extends GroupInputs>(family: GroupFamily): HostingProvider<I, I & GroupState> {
  const idFormat = [family.ownerField, "runnerGroupId"] as const;
  const pathOf = (id: string) => {
    const [owner = "", groupId = ""] = splitId(id, idFormat, family.kind);
    return { owner, path: `${family.collection(owner)}/${groupId}` };
  };
  return {
    async check(_olds, news) {
      const rules = groupRules(family.access.field) as CrossFieldRules<Record<string, unknown>>;
      return checkInputs(family.schema, news, rules) as pulumi.dynamic.CheckResult<I>;
    },

    async diff(_id, olds, news) {
      return diffFields(family.rules, olds, news);
    },

    async create(inputs) {
      const c = client();
      const owner = ownerOf(family, inputs);
      const collection = family.collection(owner);
      const managed = (inputs as Record<string, unknown>).runners !== undefined;
      let live: Record<string, unknown>;
      let groupId: number;
      if (inputs.importId !== undefined) {
        const path = `${collection}/${inputs.importId}`;
        live = await readGroup(c, family, path, managed).catch((e: unknown) => {
          throw isNotFound(e)
            ? new HostingApiError({
                code: "not_found",
                status: 404,
                method: "GET",
                path,
                apiMessage: `importId ${inputs.importId}: no such runner group`,
              })
            : e;
        });
        groupId = live.runnerGroupId as number;
      } else {
        const desiredAccess = (inputs as Record<string, unknown>)[family.access.field];
        const body = {
          ...settingsBody(inputs),
          ...(inputs.visibility === "selected" ? { [family.access.bodyKey]: desiredAccess ?? [] } : {}),
          ...(managed ? { runners: (inputs as Record<string, unknown>).runners } : {}),
        };
        const made = await createWithoutDuplicates(
          async () =>
            parseResponse(apiRunnerGroupSchema, (await c.post(collection, body)).data, "POST", collection),
          async () =>
            (
              await c.paginate<unknown>(collection, {
                select: (b) => (b as { runner_groups?: unknown[] })?.runner_groups ?? [],
              })
            )
              .map((g) => apiRunnerGroupSchema.parse(g))
              .find((g) => g.name.toLowerCase() === inputs.name.toLowerCase()),
        ).catch((e: unknown) => {
          throw nameTaken(e, family, inputs.name) ?? e;
        });
        groupId = made.value.id;
        if (!made.adopted) {
          // The POST carried everything: the response plus what was sent is the state.
          const live = {
            ...settingsFromApi(made.value),
            ...(inputs.visibility === "selected" ? { [family.access.field]: desiredAccess ?? [] } : {}),
            runners: (inputs as Record<string, unknown>).runners,
          };
          return { id: joinId(owner, groupId), outs: outputsOf(family, owner, undefined, live, managed) };
        }
        live = await readGroup(c, family, `${collection}/${groupId}`, managed);
      }
      const id = joinId(owner, groupId);
      try {
        const next = await converge(c, family, `${collection}/${groupId}`, live, inputs);
        return { id, outs: outputsOf(family, owner, inputs.importId, next, managed) };
      } catch (e) {
        throw new PartialCreateError(id, outputsOf(family, owner, inputs.importId, live, managed), e);
      }
    },

    async read(id, props) {
      const { owner, path } = pathOf(id);
      const managed = (props as Record<string, unknown> | undefined)?.runners !== undefined;
      let live: Record<string, unknown>;
      try {
        live = await readGroup(client(), family, path, managed);
      } catch (e) {
        if (isNotFound(e)) return {};
        throw e;
      }
      const outs = outputsOf<I>(
        family,
        (props as Record<string, string> | undefined)?.[family.ownerField] ?? owner,
        props?.importId,
        live,
        managed,
      );
      return { id, props: outs, inputs: inputsFrom(family.rules, outs) };
    },

    async update(id, olds, news) {
      const { owner, path } = pathOf(id);
      const managed = (news as Record<string, unknown>).runners !== undefined;
      const next = await converge(client(), family, path, { ...olds }, news);
      return {
        outs: outputsOf(family, ownerOf(family, news) || owner, news.importId, next, managed),
      };
    },

    async delete(id, props) {
      const { path } = pathOf(id);
      if (props.isDefault) {
        notice(
          `${family.kind} ${id} is a default runner group: it cannot be deleted and was left in place (no longer managed)`,
        );
        return;
      }
      try {
        await client().delete(path);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    },
  };
}

export const enterpriseRunnerGroupProvider =
  runnerGroupProvider<EnterpriseRunnerGroupInputs>(ENTERPRISE_FAMILY);
export const orgRunnerGroupProvider = runnerGroupProvider<OrgRunnerGroupInputs>(ORG_FAMILY);

const runnersPath = (org: string, groupId: number | string) =>
  `/orgs/${encodeURIComponent(org)}/actions/runner-groups/${groupId}/runners`;

async function groupRunners(c: HostingClient, path: string): Promise<number[]> {
  const entries = await c.paginate<unknown>(path, {
    select: (b) => (b as { runners?: unknown[] })?.runners ?? [],
  });
  return parseResponse(z.array(apiRunnerSchema), entries, "GET", path).map((r) => r.id);
}

function missingGroup(e: unknown, org: string, groupId: number): unknown {
  if (!isNotFound(e)) return e;
  return new HostingApiError({
    code: "not_found",
    status: 404,
    method: "PUT",
    path: runnersPath(org, groupId),
    apiMessage: `runner group ${groupId} does not exist in ${org}`,
    hint: "Check runnerGroupId (an OrgRunnerGroup's runnerGroupId output) and that the token administers the organisation",
  });
}

export const runnerGroupRunnersProvider: HostingProvider<
  RunnerGroupRunnersInputs,
  RunnerGroupRunnersOutputs
> = {
  async check(_olds, news) {
    return checkInputs(runnerGroupRunnersInputs, news);
  },

  async diff(_id, olds, news) {
    return diffFields(runnerGroupRunnersRules, olds, news);
  },

  async create(inputs) {
    // PUT replaces the whole membership, so repeating it is safe and there is nothing to look for.
    await client()
      .put(runnersPath(inputs.org, inputs.runnerGroupId), { runners: inputs.runners })
      .catch((e: unknown) => {
        throw missingGroup(e, inputs.org, inputs.runnerGroupId);
      });
    return {
      id: joinId(inputs.org, inputs.runnerGroupId),
      outs: { ...inputs, runners: [...inputs.runners] },
    };
  },

  async read(id, props) {
    const [org = "", groupId = ""] = splitId(id, ["org", "runnerGroupId"], "RunnerGroupRunners");
    let runners: number[];
    try {
      runners = await groupRunners(client(), runnersPath(org, groupId));
    } catch (e) {
      if (isNotFound(e)) return {};
      throw e;
    }
    const outs = { org: props?.org ?? org, runnerGroupId: Number(groupId), runners };
    return { id, props: outs, inputs: inputsFrom(runnerGroupRunnersRules, outs) };
  },

  async update(_id, olds, news) {
    if (!sameValue(olds.runners, news.runners, true)) {
      await client()
        .put(runnersPath(news.org, news.runnerGroupId), { runners: news.runners })
        .catch((e: unknown) => {
          throw missingGroup(e, news.org, news.runnerGroupId);
        });
    }
    return { outs: { ...news } };
  },

  async delete(id, props) {
    try {
      await client().put(runnersPath(props.org, props.runnerGroupId), { runners: [] });
      notice(`RunnerGroupRunners ${id}: its runners returned to the organisation's default runner group`);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------------

const GROUP_OUTPUTS = [
  "name",
  "visibility",
  "allowsPublicRepositories",
  "restrictedToWorkflows",
  "selectedWorkflows",
  "importId",
  "runnerGroupId",
  "isDefault",
  "runnersUrl",
];

/** A runner group of an enterprise. id: `enterprise/runnerGroupId`. */
export class EnterpriseRunnerGroup extends pulumi.dynamic.Resource {
  declare readonly enterprise: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly visibility: pulumi.Output<"all" | "selected">;
  declare readonly selectedOrganizationIds: pulumi.Output<number[] | undefined>;
  declare readonly runners: pulumi.Output<number[] | undefined>;
  declare readonly allowsPublicRepositories: pulumi.Output<boolean>;
  declare readonly restrictedToWorkflows: pulumi.Output<boolean>;
  declare readonly selectedWorkflows: pulumi.Output<string[] | undefined>;
  /** The group's id on the server. */
  declare readonly runnerGroupId: pulumi.Output<number>;
  /** Whether this is the enterprise's default group (never deleted on destroy). */
  declare readonly isDefault: pulumi.Output<boolean>;
  declare readonly runnersUrl: pulumi.Output<string>;

  constructor(name: string, args: EnterpriseRunnerGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      shimFor("EnterpriseRunnerGroup"),
      name,
      resourceProps(["enterprise", "selectedOrganizationIds", "runners", ...GROUP_OUTPUTS], args),
      opts,
      "hosting",
      "EnterpriseRunnerGroup",
    );
  }

  static get(
    name: string,
    id: pulumi.Input<string>,
    opts?: pulumi.CustomResourceOptions,
  ): EnterpriseRunnerGroup {
    return new EnterpriseRunnerGroup(name, undefined as unknown as EnterpriseRunnerGroupArgs, {
      ...opts,
      id,
    });
  }
}

/** A runner group of an organisation. id: `org/runnerGroupId`. */
export class OrgRunnerGroup extends pulumi.dynamic.Resource {
  declare readonly org: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly visibility: pulumi.Output<"all" | "selected" | "private">;
  declare readonly selectedRepositoryIds: pulumi.Output<number[] | undefined>;
  declare readonly allowsPublicRepositories: pulumi.Output<boolean>;
  declare readonly restrictedToWorkflows: pulumi.Output<boolean>;
  declare readonly selectedWorkflows: pulumi.Output<string[] | undefined>;
  declare readonly runnerGroupId: pulumi.Output<number>;
  declare readonly isDefault: pulumi.Output<boolean>;
  declare readonly runnersUrl: pulumi.Output<string>;

  constructor(name: string, args: OrgRunnerGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      shimFor("OrgRunnerGroup"),
      name,
      resourceProps(["org", "selectedRepositoryIds", ...GROUP_OUTPUTS], args),
      opts,
      "hosting",
      "OrgRunnerGroup",
    );
  }

  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): OrgRunnerGroup {
    return new OrgRunnerGroup(name, undefined as unknown as OrgRunnerGroupArgs, { ...opts, id });
  }
}

/**
 * The authoritative set of runners of one organisation runner group. Destroying it returns those
 * runners to the organisation's default group. id: `org/runnerGroupId`.
 */
export class RunnerGroupRunners extends pulumi.dynamic.Resource {
  declare readonly org: pulumi.Output<string>;
  declare readonly runnerGroupId: pulumi.Output<number>;
  declare readonly runners: pulumi.Output<number[]>;

  constructor(name: string, args: RunnerGroupRunnersArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      shimFor("RunnerGroupRunners"),
      name,
      resourceProps(["org", "runnerGroupId", "runners"], args),
      opts,
      "hosting",
      "RunnerGroupRunners",
    );
  }

  static get(
    name: string,
    id: pulumi.Input<string>,
    opts?: pulumi.CustomResourceOptions,
  ): RunnerGroupRunners {
    return new RunnerGroupRunners(name, undefined as unknown as RunnerGroupRunnersArgs, { ...opts, id });
  }
}
