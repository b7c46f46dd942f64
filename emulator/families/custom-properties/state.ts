/** The custom property value family's state: values of organisations and of repositories. */
import { rows, type StateOf } from "../../core/state";

/** A custom property's value of one organisation or one repository (absent: no value). */
export interface StoredPropertyValue {
  /** The organisation's login, or `owner/repo` (lower case) for a repository. */
  target: string;
  /** The property's name, spelled as its definition. */
  name: string;
  /** A string (string, single select) or the chosen values (multi select). */
  value: string | string[];
}

export const propertyValueState = {
  /** Organisation custom property values (organisations of an enterprise only). */
  orgPropertyValues: rows<StoredPropertyValue>(),
  /** Repository custom property values. */
  repoPropertyValues: rows<StoredPropertyValue>(),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof propertyValueState> {}
}
