import { apiOrganizationSchema } from "./meta";
import { route, STATUS_ONLY } from "./route";

export const organizationsRoutes = {
  orgAdmin: {
    create: route("POST /admin/organizations", { body: apiOrganizationSchema }),
    rename: route("PATCH /admin/organizations/{org}", STATUS_ONLY),
  },
} as const;
