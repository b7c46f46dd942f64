/** Custom property values: OrgPropertyValue and RepositoryPropertyValue. */
export * from "./org-property-value";
export * from "./repository-property-value";
export type { PropertyValue } from "./shared";
