/** The organisation configuration family's state: blocks, issue types and issue fields. */
import { rows, type StateOf } from "../../core/state";

/** A user blocked by an organisation. */
export interface StoredOrgBlock {
  /** The organisation's login. */
  org: string;
  /** The blocked user's login, as the fixture spells it. */
  login: string;
  createdAt: string;
}

export type IssueColor = "gray" | "blue" | "green" | "yellow" | "orange" | "red" | "pink" | "purple";

/** An organisation's issue type. */
export interface StoredIssueType {
  id: number;
  /** The organisation's login. */
  org: string;
  name: string;
  description: string | null;
  color: IssueColor | null;
  isEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type IssueFieldDataType = "text" | "date" | "single_select" | "multi_select" | "number";

/** One option of a select issue field. */
export interface StoredIssueFieldOption {
  id: number;
  name: string;
  description: string | null;
  color: IssueColor;
  priority: number;
  createdAt: string;
  updatedAt: string;
}

/** An organisation's issue field. */
export interface StoredIssueField {
  id: number;
  /** The organisation's login. */
  org: string;
  name: string;
  description: string | null;
  dataType: IssueFieldDataType;
  visibility: "organization_members_only" | "all";
  /** The options of a select field, by priority; empty for the other data types. */
  options: StoredIssueFieldOption[];
  createdAt: string;
  updatedAt: string;
}

export const orgConfigState = {
  /** Users blocked by organisations, oldest block first. */
  orgBlocks: rows<StoredOrgBlock>(undefined, { since: 3 }),
  issueTypes: rows<StoredIssueType>(undefined, { since: 3 }),
  issueFields: rows<StoredIssueField>(undefined, { since: 3 }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof orgConfigState> {}
}
