export * from "./org-membership";
