/** Notification threads, polling and marking read (docs/sandbox.md, "Notifications"). */
import type { Family } from "../../core/family";
import { notificationControls, notificationRoutes } from "./routes";
import { notificationFixture } from "./seed";
import { notificationState } from "./state";

export const notifications = {
  name: "notifications",
  state: notificationState,
  fixture: notificationFixture,
  routes: notificationRoutes,
  controls: notificationControls,
} satisfies Family;
