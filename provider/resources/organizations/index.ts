export * from "./organization";
