import { route, V2026 } from "./route";

export const notificationsRoutes = {
  notifications: {
    list: route("GET /notifications", V2026),
    markRead: route("PUT /notifications", V2026),
    thread: route("GET /notifications/threads/{thread_id}", V2026),
  },
} as const;
