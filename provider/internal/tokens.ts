/**
 * Type tokens, made here only: the plugin's `hosting:index:<Name>` for kinds, functions and named
 * types (the schema's and the SDKs'), and the dynamic resources' `pulumi-nodejs:dynamic/hosting:<Kind>`
 * (what the SDK makes of the package and kind `dynamic.Resource` is given).
 */

/** The package's name: the plugin's, the schema's and the dynamic resources' module. */
export const PACKAGE = "hosting";

/** `hosting:index:<name>`: a kind, a function or a named type of the schema. */
export const typeToken = (name: string): string => `${PACKAGE}:index:${name}`;

/** `pulumi-nodejs:dynamic/hosting:<kind>`: the type token of a dynamic resource. */
export const dynamicToken = (kind: string): string => `pulumi-nodejs:dynamic/${PACKAGE}:${kind}`;
