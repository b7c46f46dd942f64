/** The organisation configuration family's state: blocks, issue types, issue fields and settings. */
import { map, rows, type StateOf } from "../../core/state";

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

/** An organisation's profile and member policies (`PATCH /orgs/{org}`); its description is the world's. */
export interface StoredOrgSettings {
  billingEmail: string | null;
  company: string | null;
  email: string | null;
  location: string | null;
  blog: string | null;
  defaultRepositoryPermission: "read" | "write" | "admin" | "none";
  membersCanCreateRepositories: boolean;
  membersCanCreatePublicRepositories: boolean;
  membersCanCreatePrivateRepositories: boolean;
  membersCanCreateInternalRepositories: boolean;
  membersCanForkPrivateRepositories: boolean;
  webCommitSignoffRequired: boolean;
  /** When an owner last changed them; absent while they are the defaults. */
  updatedAt?: string;
}

export const orgConfigState = {
  /** Users blocked by organisations, oldest block first. */
  orgBlocks: rows<StoredOrgBlock>(undefined, { since: 3 }),
  issueTypes: rows<StoredIssueType>(undefined, { since: 3 }),
  issueFields: rows<StoredIssueField>(undefined, { since: 3 }),
  /** Organisation id (decimal) -> settings; an organisation without an entry has the defaults. */
  orgSettings: map<StoredOrgSettings>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof orgConfigState> {}
}
