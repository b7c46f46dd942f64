/** The notification family's state: every user's threads, seeded from the fixture. */
import { rows, type StateOf } from "../../core/state";
import "./seed";

/** A notification thread of one user (spec, concepts, Notification thread; threads.ts). */
export interface StoredThread {
  /** A decimal integer as a string, unique among threads. */
  id: string;
  /** The login of the user it belongs to. */
  user: string;
  /** The repository's id: an organisation rename leaves it valid. */
  repoId: number;
  subject: { title: string; type: string; path: string };
  reason: string;
  unread: boolean;
  updatedAt: string;
  lastReadAt: string | null;
  participating: boolean;
  /** The last time anything of the thread changed (Last-Modified): ISO 8601, seconds. */
  changedAt: string;
}

export const notificationState = {
  notificationThreads: rows<StoredThread>(
    (fixture) =>
      (fixture.notifications ?? []).map((n) => ({
        ...structuredClone(n),
        changedAt: n.lastReadAt && n.lastReadAt > n.updatedAt ? n.lastReadAt : n.updatedAt,
      })),
    { since: 3 },
  ),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof notificationState> {}
}
