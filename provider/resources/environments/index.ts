export * from "./deployment-protection-rule";
