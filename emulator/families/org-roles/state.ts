/** The organisation role family's state: who holds which role. The roles are the fixture's. */
import { rows, type StateOf } from "../../core/state";

/** One role held by one team or one user of an organisation (exactly one of `team`, `user`). */
export interface StoredRoleAssignment {
  /** The organisation's login. */
  org: string;
  roleId: number;
  /** The team's slug. */
  team?: string;
  /** The user's login, as the fixture spells it. */
  user?: string;
}

export const orgRoleState = {
  orgRoleAssignments: rows<StoredRoleAssignment>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof orgRoleState> {}
}
