/** Runs tasks with at most `limit` at once, results in the tasks' order; a failing task fails nothing else. */
export async function pool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, at: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const at = next++;
      results[at] = await task(items[at] as T, at);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
