/** The API root, the signed-in user, organisations and repositories as the fixture has them. */
import type { Family } from "../../core/family";
import { metaRoutes } from "./routes";

export const meta = { name: "meta", routes: metaRoutes } satisfies Family;
