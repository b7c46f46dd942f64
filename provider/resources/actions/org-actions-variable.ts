/**
 * OrgActionsVariable: an Actions variable of an organisation (`/orgs/{org}/actions/variables/{name}`)
 * and the repositories that may use it. Variables are not secret: the API returns the value, so a
 * value changed outside Pulumi is drift like any other field.
 *
 * The name is the variable's identity: create reads it first and adopts a variable already there
 * under that name, writing only if it differs (`convergeVariable`). With visibility "selected",
 * the POST or PATCH carries the repository ids (the platform replaces the list); read lists them
 * (`.../repositories`) and compares them as a set.
 */
import { z } from "zod";
import {
  ACTIONS_VISIBILITIES,
  type ApiActionsVariable,
  type ApiActionsVariableWrite,
  actionsRoutes,
} from "../../../api/actions";
import { knownValue } from "../../client/errors";
import { fields } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { diffFields, lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { convergeVariable, variableApi } from "./actions-api";
import {
  ACCESS,
  actionsOutputs,
  nameField,
  orgScope,
  selectedOnly,
  variableValueField,
  visibilityFields,
} from "./shared";

export const orgActionsVariableKind = declareKind({
  kind: "OrgActionsVariable",
  description:
    "An Actions variable of an organisation (`/orgs/{org}/actions/variables/{name}`), and which of its repositories may use it. Needs the token of an organisation owner: classic scope `admin:org`, or the fine-grained permission `organization_actions_variables` write.",
  idFormat: ["org", "name"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the variable.",
      replace: true,
    }),
    name: nameField("name", "variable"),
    value: variableValueField(),
    ...visibilityFields("variable"),
  }),
  outputs: z.object(actionsOutputs("variable")),
  discovery: {
    scope: "org",
    what: ({ org }) => `Actions variables of ${org}`,
    names: ["{org|module}-variable-{name}"],
    // Each is read through the provider: the list does not say which repositories are selected.
    async list(c, { org = "" }): Promise<Found[]> {
      const variables = await c.paginate(actionsRoutes.orgActionsVariables.list, { org });
      return variables.map((v) => ({ id: orgActionsVariableKind.formatId({ org, name: v.name }) }));
    },
  },
});

export type OrgActionsVariableArgs = ArgsOf<typeof orgActionsVariableKind.inputs>;
export type OrgActionsVariableInputs = z.infer<typeof orgActionsVariableKind.inputs>;
export type OrgActionsVariableOutputs = OutputsOfKind<typeof orgActionsVariableKind>;

const KIND = orgActionsVariableKind.kind;

const parseId = (id: string) => {
  const { org, name } = orgActionsVariableKind.parseId(id);
  return { org, name };
};

const variables = (org: string) =>
  variableApi(client(), actionsRoutes.orgActionsVariables, orgScope(org, ACCESS.orgVariables), KIND);

/** The ids of the repositories a "selected" variable is for, as the server lists them. */
async function selectedIds(org: string, name: string): Promise<number[]> {
  const repos = await client().paginate(actionsRoutes.orgActionsVariables.repositories, { org, name });
  return repos.map((r) => r.id);
}

/** Names are case-insensitive on the platform. */
const comparable = lowerCased<OrgActionsVariableInputs>("org", "name");

// Mapped by hand, not from wire paths: the name is also the address, and the selected repositories are listed apart.
/** The whole desired state, sent by every POST and PATCH. */
function writeBody(inputs: OrgActionsVariableInputs, name = inputs.name): ApiActionsVariableWrite {
  return {
    name,
    value: inputs.value,
    visibility: inputs.visibility,
    ...(inputs.visibility === "selected"
      ? { selected_repository_ids: [...new Set(inputs.selectedRepositoryIds ?? [])] }
      : {}),
  };
}

function outputsOf(org: string, api: ApiActionsVariable, selected: number[] | undefined) {
  return compact({
    org,
    name: api.name,
    value: api.value,
    visibility: knownValue(ACTIONS_VISIBILITIES, api.visibility ?? "", `${KIND} ${api.name}`, "visibility"),
    selectedRepositoryIds: selected,
    createdAt: api.created_at,
    updatedAt: api.updated_at,
  }) as OrgActionsVariableOutputs;
}

/** The variable as read reports it: with its selected repositories, listed when it has some. */
async function live(org: string, api: ApiActionsVariable): Promise<OrgActionsVariableOutputs> {
  const selected = api.visibility === "selected" ? await selectedIds(org, api.name) : undefined;
  return outputsOf(org, api, selected);
}

const selectedOf = (inputs: OrgActionsVariableInputs) =>
  inputs.visibility === "selected" ? (inputs.selectedRepositoryIds ?? []) : undefined;

export const orgActionsVariableProvider = defineProvider<
  typeof orgActionsVariableKind.inputs,
  OrgActionsVariableOutputs
>(orgActionsVariableKind, {
  crossField: selectedOnly,
  comparable,

  async create(inputs) {
    // A variable already there and as the program says is adopted as read; any other is written.
    let unchanged: OrgActionsVariableOutputs | undefined;
    const variable = await convergeVariable(variables(inputs.org), writeBody(inputs), async (current) => {
      const found = await live(inputs.org, current);
      const changes = diffFields(orgActionsVariableKind.rules, comparable(found), comparable(inputs)).changes;
      if (!changes) unchanged = found;
      return changes === true;
    });
    const outs = unchanged ?? outputsOf(inputs.org, variable, selectedOf(inputs));
    return {
      id: orgActionsVariableKind.formatId({ org: inputs.org, name: variable.name }),
      outs: { ...outs, org: inputs.org },
    };
  },

  async read(id, props) {
    const where = parseId(id);
    // A 404: the variable, its organisation, or the token's access to it is gone. Refresh drops it.
    const variable = await readOrGone(() => variables(where.org).get(where.name));
    if (!variable) return {};
    return { id, props: await live(props?.org ?? where.org, variable) };
  },

  async update(id, _olds, news) {
    // The whole desired state (PATCH answers 204 without a body): then one read.
    const { name } = parseId(id);
    const api = variables(news.org);
    await api.update(name, writeBody(news, name));
    return { outs: outputsOf(news.org, await api.get(name), selectedOf(news)) };
  },

  async delete(id) {
    const where = parseId(id);
    await deleteIgnoringGone(() => variables(where.org).delete(where.name));
  },
});

/**
 * An Actions variable of an organisation: see its declaration, `orgActionsVariableKind`. Example:
 * `examples/actions/`.
 */
export class OrgActionsVariable extends resourceClass<OrgActionsVariableArgs, OrgActionsVariableOutputs>(
  orgActionsVariableProvider,
) {}
