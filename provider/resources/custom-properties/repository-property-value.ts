/**
 * RepositoryPropertyValue: one custom property's value of one repository
 * (`/repos/{owner}/{repo}/properties/values`). The properties are defined by the organisation that
 * owns the repository.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { checkPropertyValue, customPropertiesRoutes } from "../../../api/custom-properties";
import { notice } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, type OutputsOfKind } from "../../internal/declare";
import { lowerCased, sameValue } from "../../internal/diff";
import { defineProvider } from "../../internal/lifecycle";
import { repositoryFields } from "../../internal/repository-fields";
import { resourceClass } from "../../internal/resource";
import { definitionsOf, propertyFields, type ValueKind, valueMethods, valueRoutes } from "./shared";

// ---------------------------------------------------------------------------------------------
// Declaration (the PATCH answers 204, and read reports the value it found: no output-only fields)
// ---------------------------------------------------------------------------------------------

export const repositoryPropertyValueKind = declareKind({
  kind: "RepositoryPropertyValue",
  description:
    "One custom property's value of one repository (`/repos/{owner}/{repo}/properties/values`). The properties are defined by the organisation that owns the repository. Needs a token that administers the repository: classic scope `repo`, or the fine-grained permission `repository_custom_properties` write.",
  idFormat: ["owner", "repository", "propertyName"],
  inputs: z.object({
    ...repositoryFields("resource", "The organisation owning the repository"),
    ...propertyFields("the organisation defines for its repositories", "tier"),
  }),
  outputs: z.object({}),
  discovery: {
    scope: "repository",
    what: ({ owner, repo }) => `property values of ${owner}/${repo}`,
    names: ["{owner}-{repository}-property-{propertyName}"],
    async list(c, { owner = "", repo = "" }): Promise<Found[]> {
      const values = (await c.get(customPropertiesRoutes.propertyValues.repo, { owner, repo })).data;
      return values
        .filter((v) => v.value !== null)
        .map((v) => ({
          id: repositoryPropertyValueKind.formatId({
            owner,
            repository: repo,
            propertyName: v.property_name,
          }),
        }));
    },
  },
});

export type RepositoryPropertyValueArgs = ArgsOf<typeof repositoryPropertyValueKind.inputs>;
export type RepositoryPropertyValueInputs = z.infer<typeof repositoryPropertyValueKind.inputs>;
export type RepositoryPropertyValueOutputs = OutputsOfKind<typeof repositoryPropertyValueKind>;

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const repositoryValues: ValueKind<RepositoryPropertyValueInputs> = {
  kind: repositoryPropertyValueKind.kind,
  parseId: repositoryPropertyValueKind.parseId,
  formatId: repositoryPropertyValueKind.formatId,
  collectionOf: ({ owner, repository }) => ({
    ...valueRoutes(
      customPropertiesRoutes.propertyValues.repo,
      customPropertiesRoutes.propertyValues.updateRepo,
      { owner, repo: repository },
    ),
    notFound: [
      `there is no repository ${owner}/${repository}`,
      "the token's user cannot administer the repository",
      "the token lacks the classic scope repo (or the fine-grained permission repository_custom_properties write)",
    ],
  }),
};

export const repositoryPropertyValueProvider = defineProvider<
  typeof repositoryPropertyValueKind.inputs,
  RepositoryPropertyValueOutputs
>(repositoryPropertyValueKind, {
  // Owner and repository names are case-insensitive on the platform; property names are compared as written.
  comparable: lowerCased<RepositoryPropertyValueInputs>("owner", "repository"),
  preflight: checkAgainstDefinition,
  ...valueMethods(repositoryValues),
});

/**
 * A new or changed value checked at preview against its property's definition, where the
 * organisation already has it (one shared read of its definitions per run): a value the
 * definition refuses fails naming the property and what it allows. A property not defined yet is
 * a notice, since the create will fail unless a definition this program declares comes first (its
 * `propertyName` output makes the value wait for it; then the name is unknown at preview and this
 * check does not run). A definition that cannot be read leaves the check to the server.
 */
async function checkAgainstDefinition(
  inputs: RepositoryPropertyValueInputs,
  olds: Partial<RepositoryPropertyValueInputs>,
): Promise<pulumi.dynamic.CheckFailure | undefined> {
  const unchanged =
    olds.propertyName === inputs.propertyName &&
    olds.owner?.toLowerCase() === inputs.owner.toLowerCase() &&
    sameValue(olds.value, inputs.value, true);
  if (unchanged || inputs.value === null) return undefined;
  const definitions = await definitionsOf(inputs.owner).catch(() => undefined);
  if (definitions === undefined) return undefined;
  const key = inputs.propertyName.toLowerCase();
  const definition = definitions.find((d) => d.property_name.toLowerCase() === key);
  if (definition === undefined) {
    notice(
      `RepositoryPropertyValue ${repositoryPropertyValueKind.formatId(inputs)}: ${inputs.owner} defines no property ${inputs.propertyName} yet; if an OrgCustomProperty of this program defines it, pass its propertyName output so the value waits for it`,
    );
    return undefined;
  }
  const checked = checkPropertyValue(
    {
      name: definition.property_name,
      valueType: definition.value_type,
      allowedValues: definition.allowed_values ?? undefined,
    },
    inputs.value,
  );
  return typeof checked === "string" ? { property: "value", reason: checked } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** One custom property's value of one repository: see its declaration, `repositoryPropertyValueKind`. */
export class RepositoryPropertyValue extends resourceClass<
  RepositoryPropertyValueArgs,
  RepositoryPropertyValueOutputs
>(repositoryPropertyValueProvider) {}
