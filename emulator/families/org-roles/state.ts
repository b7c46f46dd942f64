/** The organisation role family's state: who holds which role. The roles are the fixture's. */
import { rows, type StateOf } from "../../core/state";

/** One role held by one team or one user of an organisation (exactly one of `teamId`, `user`). */
export interface StoredRoleAssignment {
  /** The organisation's login. */
  org: string;
  roleId: number;
  /** The team's id (the teams family's): a renamed team keeps its roles, a deleted one holds none. */
  teamId?: number;
  /** The user's login, as the fixture spells it. */
  user?: string;
}

export const orgRoleState = {
  orgRoleAssignments: rows<StoredRoleAssignment>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof orgRoleState> {}
}
