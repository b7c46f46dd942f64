/**
 * RepositoryPropertyValue: one custom property's value of one repository
 * (`/repos/{owner}/{repo}/properties/values`). The properties are defined by the organisation that
 * owns the repository.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ROUTES } from "../../client/routes";
import { fields } from "../../internal/check";
import { type FieldRules, lowerCased } from "../../internal/diff";
import { joinId } from "../../internal/ids";
import { defineProvider } from "../../internal/lifecycle";
import { HostingResource, type OutputsOf } from "../../internal/resource";
import {
  type PropertyValue,
  propertyValueInputs,
  type ValueKind,
  valueMethods,
  valueRoutes,
  valueRule,
} from "./shared";

// ---------------------------------------------------------------------------------------------
// Args
// ---------------------------------------------------------------------------------------------

export interface RepositoryPropertyValueArgs {
  /** The organisation owning the repository. A change replaces the resource. */
  owner: pulumi.Input<string>;
  /** The repository name (without `.git`). A change replaces the resource. */
  repository: pulumi.Input<string>;
  /**
   * The name of a custom property the organisation defines for its repositories (e.g. `tier`).
   * A change replaces the resource (the old property's value is removed).
   */
  propertyName: pulumi.Input<string>;
  /**
   * The value: a string for string and single select properties, a list of strings for multi
   * select ones (compared as a set), or `null` for no value. Which values are allowed is defined on
   * the server: a value it refuses fails `up` with its message naming the property. Updates in
   * place; a value changed or removed outside Pulumi shows as drift.
   */
  value: pulumi.Input<string | pulumi.Input<string>[] | null>;
}

// ---------------------------------------------------------------------------------------------
// Schemas (defaults applied in check)
// ---------------------------------------------------------------------------------------------

export const repositoryPropertyValueInputs = z.object({
  owner: fields.name("owner"),
  repository: fields.name("repository"),
  ...propertyValueInputs,
});

export type RepositoryPropertyValueInputs = z.infer<typeof repositoryPropertyValueInputs>;
/** The outputs are the inputs: the PATCH answers 204, and read reports the value it found. */
export type RepositoryPropertyValueOutputs = RepositoryPropertyValueInputs;

// ---------------------------------------------------------------------------------------------
// Replace-on-change
// ---------------------------------------------------------------------------------------------

export const repositoryPropertyValueRules: FieldRules<RepositoryPropertyValueInputs> = {
  owner: { replace: true },
  repository: { replace: true },
  propertyName: { replace: true },
  ...valueRule,
};

// ---------------------------------------------------------------------------------------------
// Provider
// ---------------------------------------------------------------------------------------------

const repositoryValues: ValueKind<RepositoryPropertyValueInputs> = {
  kind: "RepositoryPropertyValue",
  idFormat: ["owner", "repository", "propertyName"],
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
  typeof repositoryPropertyValueInputs,
  RepositoryPropertyValueOutputs
>(repositoryValues.kind, {
  idFormat: repositoryValues.idFormat,
  inputs: repositoryPropertyValueInputs,
  rules: repositoryPropertyValueRules,
  // Owner and repository names are case-insensitive on the platform; property names are compared as written.
  comparable: lowerCased<RepositoryPropertyValueInputs>("owner", "repository"),
  ...valueMethods(repositoryValues),
});

// ---------------------------------------------------------------------------------------------
// Resource
// ---------------------------------------------------------------------------------------------

const OUTPUTS = ["owner", "repository", "propertyName", "value"] as const;

/**
 * One custom property's value of one repository (`/repos/{owner}/{repo}/properties/values`). The
 * properties are defined by the organisation that owns the repository. Needs a token that
 * administers the repository: classic scope `repo`, or the fine-grained permission
 * `repository_custom_properties` write.
 */
export class RepositoryPropertyValue extends HostingResource {
  constructor(name: string, args: RepositoryPropertyValueArgs, opts?: pulumi.CustomResourceOptions) {
    super(repositoryPropertyValueProvider, name, args, OUTPUTS, opts);
  }
}

export interface RepositoryPropertyValue extends OutputsOf<RepositoryPropertyValueOutputs> {}
