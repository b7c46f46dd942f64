/**
 * RepositoryActionsVariable: an Actions variable of one repository
 * (`/repos/{owner}/{repo}/actions/variables/{name}`). Variables are not secret: the API returns the
 * value, so a value changed outside Pulumi is drift like any other field.
 *
 * The name is the variable's identity: create reads it first and adopts a variable already there
 * under that name, writing only if it differs (`convergeVariable`).
 */
import { z } from "zod";
import { type ApiActionsVariable, actionsRoutes } from "../../../api/actions";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import { convergeVariable, variableApi } from "./actions-api";
import { ACCESS, actionsOutputs, nameField, repoScope, variableValueField } from "./shared";

export const repositoryActionsVariableKind = declareKind({
  kind: "RepositoryActionsVariable",
  description:
    "An Actions variable of one repository (`/repos/{owner}/{repo}/actions/variables/{name}`). Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission `actions_variables` write.",
  idFormat: ["owner", "repository", "name"],
  inputs: z.object({
    ...repositoryFields("variable"),
    name: nameField("name", "variable"),
    value: variableValueField(),
  }),
  outputs: z.object(actionsOutputs("variable")),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `Actions variables of ${owner}/${repo}`,
    names: ["{owner}-{repository}-variable-{name}"],
    // The list says everything: no variable is read again.
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const variables = await c.paginate(actionsRoutes.repoActionsVariables.list, { owner, repo });
      return variables.map((v) => ({
        id: repositoryActionsVariableKind.formatId({ owner, repository: repo, name: v.name }),
        inputs: { owner, repository: repo, name: v.name, value: v.value },
      }));
    },
  },
});

export type RepositoryActionsVariableArgs = ArgsOf<typeof repositoryActionsVariableKind.inputs>;
export type RepositoryActionsVariableInputs = z.infer<typeof repositoryActionsVariableKind.inputs>;
export type RepositoryActionsVariableOutputs = OutputsOfKind<typeof repositoryActionsVariableKind>;

const KIND = repositoryActionsVariableKind.kind;

type Where = Pick<RepositoryActionsVariableInputs, "owner" | "repository">;

const parseId = (id: string) => {
  const { owner, repository, name } = repositoryActionsVariableKind.parseId(id);
  return { owner, repository, name };
};

const variables = (w: Where) =>
  variableApi(
    client(),
    actionsRoutes.repoActionsVariables,
    repoScope(w.owner, w.repository, ACCESS.repoVariables),
    KIND,
  );

/** Names are case-insensitive on the platform. */
const comparable = lowerCased<RepositoryActionsVariableInputs>("owner", "repository", "name");

function outputsOf(where: Where, api: ApiActionsVariable): RepositoryActionsVariableOutputs {
  return {
    owner: where.owner,
    repository: where.repository,
    name: api.name,
    value: api.value,
    createdAt: api.created_at,
    updatedAt: api.updated_at,
  };
}

async function converge(inputs: RepositoryActionsVariableInputs) {
  const variable = await convergeVariable(
    variables(inputs),
    { name: inputs.name, value: inputs.value },
    async (current) => current.value !== inputs.value,
  );
  return {
    id: repositoryActionsVariableKind.formatId({ ...inputs, name: variable.name }),
    outs: outputsOf(inputs, variable),
  };
}

export const repositoryActionsVariableProvider = defineProvider<
  typeof repositoryActionsVariableKind.inputs,
  RepositoryActionsVariableOutputs
>(repositoryActionsVariableKind, {
  comparable,

  create: converge,

  async read(id, props) {
    const where = parseId(id);
    // A 404: the variable, its repository, or the token's access to it is gone. Refresh drops it.
    const variable = await readOrGone(() => variables(where).get(where.name));
    if (!variable) return {};
    const who = { owner: props?.owner ?? where.owner, repository: props?.repository ?? where.repository };
    return { id, props: outputsOf(who, variable) };
  },

  async update(id, _olds, news) {
    // The whole desired state (PATCH answers 204 without a body): then one read.
    const api = variables(news);
    const { name } = parseId(id);
    await api.update(name, { name, value: news.value });
    return { outs: outputsOf(news, await api.get(name)) };
  },

  async delete(id) {
    const where = parseId(id);
    await deleteIgnoringGone(() => variables(where).delete(where.name));
  },
});

/**
 * An Actions variable of one repository: see its declaration, `repositoryActionsVariableKind`.
 * Example: `examples/actions/`.
 */
export class RepositoryActionsVariable extends resourceClass<
  RepositoryActionsVariableArgs,
  RepositoryActionsVariableOutputs
>(repositoryActionsVariableProvider) {}
