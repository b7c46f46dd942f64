/**
 * CollectionReads: the first read of a collection is a single GET; later reads share one list
 * (joined in flight); an object the list lacks, a list that fails, and any write of this process
 * each send the reads back to single GETs.
 */
import { describe, expect, it } from "vitest";
import { HostingApiError } from "../../../provider/client/errors";
import { HostingClient } from "../../../provider/client/http";
import { type CollectionRead, CollectionReads } from "../../../provider/internal/collection-reads";

const settings = { apiRoot: "http://127.0.0.1:9/api/v3", token: "t", apiVersion: undefined };

interface Item {
  id: number;
  v: string;
}

function server(items: Item[]) {
  const calls = { list: 0, single: [] as number[] };
  const readOf = (id: number, collection = "/c"): CollectionRead<Item> => ({
    collection,
    key: String(id),
    keyOf: (i) => String(i.id),
    list: async () => {
      calls.list++;
      await new Promise((r) => setTimeout(r, 5));
      return items.map((i) => ({ ...i }));
    },
    single: async () => {
      calls.single.push(id);
      const found = items.find((i) => i.id === id);
      if (!found) throw new HostingApiError({ code: "not_found", status: 404 });
      return { ...found };
    },
  });
  return { calls, readOf };
}

describe("CollectionReads", () => {
  it("answers the first read with its single GET and the rest from one shared list", async () => {
    const reads = new CollectionReads();
    const client = new HostingClient(settings);
    const items = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, v: `v${i + 1}` }));
    const { calls, readOf } = server(items);
    const answers = await Promise.all(items.map((i) => reads.read(client, readOf(i.id))));
    expect(answers).toEqual(items);
    expect(calls).toEqual({ list: 1, single: [1] });
  });

  it("reads an object the list lacks with its single GET, so a 404 still means gone", async () => {
    const reads = new CollectionReads();
    const client = new HostingClient(settings);
    const { calls, readOf } = server([{ id: 1, v: "a" }]);
    await reads.read(client, readOf(1));
    await expect(reads.read(client, readOf(7))).rejects.toMatchObject({ status: 404 });
    expect(calls).toEqual({ list: 1, single: [1, 7] });
  });

  it("stops listing a collection whose list fails", async () => {
    const reads = new CollectionReads();
    const client = new HostingClient(settings);
    const { calls, readOf } = server([{ id: 1, v: "a" }]);
    const failing = (id: number): CollectionRead<Item> => ({
      ...readOf(id),
      list: async () => {
        calls.list++;
        throw new HostingApiError({ code: "forbidden", status: 403 });
      },
    });
    for (let i = 0; i < 4; i++) expect(await reads.read(client, failing(1))).toEqual({ id: 1, v: "a" });
    expect(calls).toEqual({ list: 1, single: [1, 1, 1, 1] });
  });

  it("never answers from a list after this process wrote to the collection", async () => {
    const reads = new CollectionReads();
    const client = new HostingClient(settings);
    const items = [
      { id: 1, v: "a" },
      { id: 2, v: "b" },
    ];
    const { calls, readOf } = server(items);
    await reads.read(client, readOf(1));
    await reads.read(client, readOf(2));
    expect(calls.list).toBe(1);
    await reads.write(client, "/c", async () => {
      items[1] = { id: 2, v: "changed" };
    });
    expect(await reads.read(client, readOf(2))).toEqual({ id: 2, v: "changed" });
    expect(calls).toEqual({ list: 1, single: [1, 2] });
    // Another collection is not affected.
    await reads.read(client, readOf(1, "/d"));
    await reads.read(client, readOf(2, "/d"));
    expect(calls.list).toBe(2);
  });

  it("keeps the lists of two clients (two sets of settings) apart", async () => {
    const reads = new CollectionReads();
    const { calls, readOf } = server([{ id: 1, v: "a" }]);
    const one = new HostingClient(settings);
    const two = new HostingClient({ ...settings, token: "other" });
    await reads.read(one, readOf(1));
    await reads.read(two, readOf(1));
    expect(calls).toEqual({ list: 0, single: [1, 1] });
  });

  it("finds objects of a collection with no single GET through one shared list, the first read included", async () => {
    const reads = new CollectionReads();
    const client = new HostingClient(settings);
    const items = [
      { id: 1, v: "a" },
      { id: 2, v: "b" },
    ];
    const { calls, readOf } = server(items);
    const find = (id: number) => {
      const { single: _none, ...read } = readOf(id);
      return reads.find(client, read);
    };
    expect(await Promise.all([find(1), find(2), find(3)])).toEqual([items[0], items[1], undefined]);
    expect(calls).toEqual({ list: 1, single: [] });
    // A write forgets the list: the next read lists again.
    await reads.write(client, "/c", async () => undefined);
    await find(1);
    expect(calls.list).toBe(2);
  });
});
