export * from "./team";
export * from "./team-members";
export * from "./team-membership";
export * from "./team-repository";
