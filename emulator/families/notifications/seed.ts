/** The notification family's facts of the default fixture: `admin`'s three threads. */
import type { Fixture } from "../../core/fixture";

/** A notification thread of the fixture; the state keeps it as a `StoredThread` (state.ts). */
export interface NotificationSeed {
  /** A decimal integer as a string (the path takes it as an integer, bodies show a string). */
  id: string;
  /** The login of the user the thread belongs to. */
  user: string;
  /** The repository's id (not its name, which an organisation rename changes). */
  repoId: number;
  subject: {
    title: string;
    /** `Issue`, `PullRequest`, ... */
    type: string;
    /** Below the repository's API URL: `issues/1`, `pulls/7`. */
    path: string;
  };
  reason: string;
  unread: boolean;
  updatedAt: string;
  lastReadAt: string | null;
  /** Whether the user takes part directly (assigned, mentioned, reviewing, ...). */
  participating: boolean;
}

declare module "../../core/fixture" {
  interface Fixture {
    /**
     * Notification threads at start (spec, concepts, Notification thread): `admin` has three on
     * fixture repositories, two unread; nobody else has any. Optional so a fixture written before
     * notifications (a data file's) still loads.
     */
    notifications?: NotificationSeed[];
  }
}

export function notificationFixture(): Pick<Fixture, "notifications"> {
  return {
    notifications: [
      {
        id: "1",
        user: "admin",
        repoId: 1000,
        subject: { title: "Rotate the deploy keys", type: "Issue", path: "issues/1" },
        reason: "assign",
        unread: true,
        updatedAt: "2026-01-12T09:00:00Z",
        lastReadAt: null,
        participating: true,
      },
      {
        id: "2",
        user: "admin",
        repoId: 1000,
        subject: { title: "Add request tracing", type: "PullRequest", path: "pulls/7" },
        reason: "review_requested",
        unread: true,
        updatedAt: "2026-01-14T15:30:00Z",
        lastReadAt: null,
        participating: true,
      },
      {
        id: "3",
        user: "admin",
        repoId: 1002,
        subject: { title: "Upgrade the base images", type: "Issue", path: "issues/4" },
        reason: "subscribed",
        unread: false,
        updatedAt: "2026-01-05T08:00:00Z",
        lastReadAt: "2026-01-06T10:00:00Z",
        participating: false,
      },
    ],
  };
}
