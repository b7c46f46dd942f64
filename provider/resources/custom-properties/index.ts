/** Custom properties: OrgCustomProperty (definitions), OrgPropertyValue and RepositoryPropertyValue. */
export * from "./org-custom-property";
export * from "./org-property-value";
export * from "./repository-property-value";
export type { PropertyValue } from "./shared";
