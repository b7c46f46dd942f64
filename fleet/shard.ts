/**
 * Sharding: which of N shards runs a stack. A stack's shard depends on its own name only (a hash of
 * `project/stack`), never on which other stacks exist, so adding an organisation moves no other
 * stack to another shard (another machine's lock, cache or report), and N jobs of a CI matrix, each
 * given `--shard I/N`, cover the fleet exactly once. The price is a shard's share that is even only
 * on average; with tens of stacks per shard the difference is a stack or two.
 */
import { createHash } from "node:crypto";

export interface Shard {
  /** 1-based, as CI matrices number jobs. */
  index: number;
  count: number;
}

/** Parses `I/N` (1 <= I <= N), naming the flag and what it allows when it is not. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new Error(`--shard must be I/N with 1 <= I <= N (e.g. 1/4); got "${text}"`);
  }
  return { index, count };
}

/** The shard (1-based) of a stack among `count`. */
export function shardOf(project: string, stack: string, count: number): number {
  const digest = createHash("sha256").update(`${project}/${stack}`).digest();
  // 48 bits are exact in a double and make the modulo's bias negligible for any count.
  return (digest.readUIntBE(0, 6) % count) + 1;
}

/** The items of one shard, in their order. */
export function inShard<T extends { project: string }>(
  items: readonly T[],
  stack: string,
  shard: Shard,
): T[] {
  return items.filter((p) => shardOf(p.project, stack, shard.count) === shard.index);
}
