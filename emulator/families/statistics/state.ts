/** The statistics family's state: what was computed, or is being computed, per repository. */
import { map, type StateOf } from "../../core/state";

/** Statistics computed (`ready`) or being computed for the default branch at `sha`. */
export interface StatisticsCache {
  sha: string;
  ready: boolean;
}

export const statisticsState = {
  /** Repository key -> the default-branch commit its statistics were (or are being) computed for. */
  statisticsCache: map<StatisticsCache>(undefined, { since: 3 }),
};

declare module "../../core/state" {
  interface EmulatorState extends StateOf<typeof statisticsState> {}
}
