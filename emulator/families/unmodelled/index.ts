/**
 * The routes no family models: their auth check, then 501 naming the route. Last in the family
 * list, so every family's routes are matched first.
 */
import type { Family } from "../../core/family";
import { unmodelledRoutes } from "./routes";

export const unmodelled = { name: "unmodelled", routes: unmodelledRoutes } satisfies Family;
