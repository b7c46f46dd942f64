/**
 * RepositoryPropertyValue: one custom property's value of one repository
 * (`/repos/{owner}/{repo}/properties/values`). The properties are defined by the organisation that
 * owns the repository.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../../../api";
import { type ArgsOf, declareKind, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { joinId } from "../../internal/ids";
import { defineProvider } from "../../internal/lifecycle";
import { repositoryFields } from "../../internal/repository-fields";
import { HostingResource, type OutputsOf } from "../../internal/resource";
import { type PropertyValue, propertyFields, type ValueKind, valueMethods, valueRoutes } from "./shared";

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
    async list(c, { owner = "", repo = "" }) {
      const values = (await c.get(ROUTES.propertyValues.repo, { owner, repo })).data;
      return values
        .filter((v) => v.value !== null)
        .map((v) => ({ id: joinId(owner, repo, v.property_name) }));
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
  idFormat: repositoryPropertyValueKind.idFormat,
  idOf: (inputs) => joinId(inputs.owner, inputs.repository, inputs.propertyName),
  collectionOf: ({ owner, repository }) => ({
    ...valueRoutes(ROUTES.propertyValues.repo, ROUTES.propertyValues.updateRepo, { owner, repo: repository }),
    notFound: [
      `there is no repository ${owner}/${repository}`,
      "the token's user cannot administer the repository",
      "the token lacks the classic scope repo (or the fine-grained permission repository_custom_properties write)",
    ],
  }),
  fromId: ([owner = "", repository = "", propertyName = ""], recorded, value: PropertyValue) => ({
    owner: recorded?.owner ?? owner,
    repository: recorded?.repository ?? repository,
    propertyName: recorded?.propertyName ?? propertyName,
    value,
  }),
};

export const repositoryPropertyValueProvider = defineProvider<
  typeof repositoryPropertyValueKind.inputs,
  RepositoryPropertyValueOutputs
>(repositoryPropertyValueKind, {
  // Owner and repository names are case-insensitive on the platform; property names are compared as written.
  comparable: lowerCased<RepositoryPropertyValueInputs>("owner", "repository"),
  ...valueMethods(repositoryValues),
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

/** One custom property's value of one repository: see its declaration, `repositoryPropertyValueKind`. */
export class RepositoryPropertyValue extends HostingResource {
  constructor(name: string, args: RepositoryPropertyValueArgs, opts?: pulumi.CustomResourceOptions) {
    super(repositoryPropertyValueProvider, name, args, opts);
  }
}

export interface RepositoryPropertyValue extends OutputsOf<RepositoryPropertyValueOutputs> {}
