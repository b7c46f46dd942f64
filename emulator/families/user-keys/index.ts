/** The signed-in user's GPG, SSH and SSH signing keys (docs/sandbox.md, "The signed-in user's keys"). */
import type { Family } from "../../core/family";
import { userKeyRoutes } from "./routes";
import { userKeyFixture } from "./seed";
import { userKeyState } from "./state";

export const userKeys = {
  name: "user-keys",
  state: userKeyState,
  fixture: userKeyFixture,
  routes: userKeyRoutes,
} satisfies Family;
