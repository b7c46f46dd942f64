/**
 * Sharding: which of N shards runs a stack. The rule, the same on every machine of a CI run:
 *
 * 1. every stack of the fleet is keyed by the SHA-256 of `project/stack` (hex);
 * 2. the stacks are sorted by that key (then by name, which never ties: project names are unique);
 * 3. they are dealt round-robin: the first to shard 1, the second to shard 2, ..., the N+1th to
 *    shard 1 again.
 *
 * So N shards over M stacks hold floor(M/N) or ceil(M/N) stacks each (2 stacks over 2 shards: one
 * each; 3 stacks: 2 and 1), and the assignment depends only on the set of project names and the
 * stack name, never on the order discovery returns them in, the machine or the file system: N jobs
 * of a CI matrix, each given `--shard I/N` on the same checkout, cover the fleet exactly once.
 * The hash spreads organisations of similar names (`acme-*`) over the shards instead of dealing
 * them in alphabetical runs. The price: adding or removing a project moves the stacks dealt after
 * it to another shard, which within one CI run does not matter (every job reads one checkout).
 */
import { createHash } from "node:crypto";

export interface Shard {
  /** 1-based, as CI matrices number jobs. */
  index: number;
  count: number;
}

/**
 * The most shards: above any CI matrix (GitHub Actions runs at most 256 jobs of a matrix, GitLab's
 * `parallel` at most 200), and small enough that a typo of many digits is refused, not run as a
 * shard that holds nothing.
 */
export const MAX_SHARDS = 1000;

const SHARD_RULE = `--shard must be I/N with I and N whole numbers, 1 <= I <= N <= ${MAX_SHARDS} (e.g. 1/4)`;

/** Parses `I/N`, naming the flag and what it allows when it is not that. */
export function parseShard(text: string): Shard {
  // Four digits at most (after leading zeros): longer numbers would lose digits in a double.
  const match = /^0*(\d{1,4})\/0*(\d{1,4})$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new Error(`${SHARD_RULE}; got "${text}"`);
  }
  return { index, count };
}

/** The key a stack is sorted by: the SHA-256 of `project/stack`, in hex. */
function keyOf(project: string, stack: string): string {
  return createHash("sha256").update(`${project}/${stack}`).digest("hex");
}

/** Each project's shard (1-based) among `count`, by the rule above. */
export function assignShards(projects: readonly string[], stack: string, count: number): Map<string, number> {
  const keyed = [...new Set(projects)].map((project) => ({ project, key: keyOf(project, stack) }));
  // Plain code-unit comparison, not localeCompare: the order must not depend on the machine's locale.
  const byKey = (a: { project: string; key: string }, b: { project: string; key: string }) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.project < b.project ? -1 : a.project > b.project ? 1 : 0;
  keyed.sort(byKey);
  return new Map(keyed.map(({ project }, position) => [project, (position % count) + 1]));
}

/** The items of one shard, in their given order. */
export function inShard<T extends { project: string }>(
  items: readonly T[],
  stack: string,
  shard: Shard,
): T[] {
  const shards = assignShards(
    items.map((p) => p.project),
    stack,
    shard.count,
  );
  return items.filter((p) => shards.get(p.project) === shard.index);
}
