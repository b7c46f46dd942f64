/** The membership family's state: pending invitations (active memberships are the fixture's). */
import { rows, type StateOf } from "../../core/state";

export interface Invitation {
  id: number;
  org: string;
  login: string;
  role: "admin" | "member";
  inviter: string;
  created_at: string;
}

export const membershipState = {
  invitations: rows<Invitation>(undefined, { ids: "nextId" }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof membershipState> {}
}
