/**
 * EnvironmentActionsVariable: an Actions variable of one environment of a repository
 * (`/repos/{owner}/{repo}/environments/{environment_name}/variables/{name}`). Variables are not
 * secret: the API returns the value, so a value changed outside Pulumi is drift like any other
 * field. Deleting the environment deletes its variables: refresh then drops this one.
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
import {
  actionsOutputs,
  environmentField,
  environmentScope,
  environmentsOf,
  nameField,
  variableValueField,
} from "./shared";

export const environmentActionsVariableKind = declareKind({
  kind: "EnvironmentActionsVariable",
  description:
    "An Actions variable of one environment of a repository (`/repos/{owner}/{repo}/environments/{environment_name}/variables/{name}`). Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission `environments` write.",
  idFormat: ["owner", "repository", "environment", "name"],
  inputs: z.object({
    ...repositoryFields("variable"),
    environment: environmentField("variable"),
    name: nameField("name", "variable"),
    value: variableValueField(),
  }),
  outputs: z.object(actionsOutputs("variable")),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `environment Actions variables of ${owner}/${repo}`,
    names: ["{owner}-{repository}-{environment}-variable-{name}"],
    // The lists say everything: no variable is read again.
    async list(c, place): Promise<Found[]> {
      const { owner = "", repo = "" } = place;
      const found = await Promise.all(
        (await environmentsOf(c, place)).map(async (environment) => {
          const params = { owner, repo, environment_name: environment };
          const variables = await c.paginate(actionsRoutes.envActionsVariables.list, params);
          return variables.map((v) => ({
            id: environmentActionsVariableKind.formatId({
              owner,
              repository: repo,
              environment,
              name: v.name,
            }),
            inputs: { owner, repository: repo, environment, name: v.name, value: v.value },
          }));
        }),
      );
      return found.flat();
    },
  },
});

export type EnvironmentActionsVariableArgs = ArgsOf<typeof environmentActionsVariableKind.inputs>;
export type EnvironmentActionsVariableInputs = z.infer<typeof environmentActionsVariableKind.inputs>;
export type EnvironmentActionsVariableOutputs = OutputsOfKind<typeof environmentActionsVariableKind>;

const KIND = environmentActionsVariableKind.kind;

type Where = Pick<EnvironmentActionsVariableInputs, "owner" | "repository" | "environment">;

const parseId = (id: string) => {
  const { owner, repository, environment, name } = environmentActionsVariableKind.parseId(id);
  return { owner, repository, environment, name };
};

const variables = (w: Where) =>
  variableApi(
    client(),
    actionsRoutes.envActionsVariables,
    environmentScope(w.owner, w.repository, w.environment),
    KIND,
  );

/** Names are case-insensitive on the platform. */
const comparable = lowerCased<EnvironmentActionsVariableInputs>("owner", "repository", "environment", "name");

function outputsOf(where: Where, api: ApiActionsVariable): EnvironmentActionsVariableOutputs {
  return {
    owner: where.owner,
    repository: where.repository,
    environment: where.environment,
    name: api.name,
    value: api.value,
    createdAt: api.created_at,
    updatedAt: api.updated_at,
  };
}

async function converge(inputs: EnvironmentActionsVariableInputs) {
  const variable = await convergeVariable(
    variables(inputs),
    { name: inputs.name, value: inputs.value },
    async (current) => current.value !== inputs.value,
  );
  return {
    id: environmentActionsVariableKind.formatId({ ...inputs, name: variable.name }),
    outs: outputsOf(inputs, variable),
  };
}

export const environmentActionsVariableProvider = defineProvider<
  typeof environmentActionsVariableKind.inputs,
  EnvironmentActionsVariableOutputs
>(environmentActionsVariableKind, {
  comparable,

  create: converge,

  async read(id, props) {
    const where = parseId(id);
    // A 404: the variable, its environment or repository, or the token's access is gone. Refresh drops it.
    const variable = await readOrGone(() => variables(where).get(where.name));
    if (!variable) return {};
    const who = {
      owner: props?.owner ?? where.owner,
      repository: props?.repository ?? where.repository,
      environment: props?.environment ?? where.environment,
    };
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
 * An Actions variable of one environment of a repository: see its declaration, `environmentActionsVariableKind`.
 * Example: `examples/actions/`.
 */
export class EnvironmentActionsVariable extends resourceClass<
  EnvironmentActionsVariableArgs,
  EnvironmentActionsVariableOutputs
>(environmentActionsVariableProvider) {}
