/**
 * Redirects: a GET that asks (`followRedirects`) follows a 301's Location within the API root, a
 * bounded number of times; without asking, or past the bound, the 301 is an error; a Location on
 * another host is never followed (the token stays on the API's host).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { route } from "../../../api";
import { HostingClient } from "../../../provider/client/http";

let server: Server;
let origin: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? "");
    const hop = /^\/api\/v3\/hop\/(\d+)$/.exec(req.url ?? "");
    if (hop) {
      const n = Number(hop[1]);
      const location = n === 0 ? `${origin}/api/v3/done` : `${origin}/api/v3/hop/${n - 1}`;
      res.writeHead(301, { location, "content-type": "application/json" });
      res.end(JSON.stringify({ message: "Moved Permanently", url: location }));
      return;
    }
    if (req.url === "/api/v3/away") {
      res.writeHead(301, {
        location: "http://elsewhere.invalid/api/v3/done",
        "content-type": "application/json",
      });
      res.end(JSON.stringify({ message: "Moved Permanently" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ name: "done", authorization: req.headers.authorization }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => new HostingClient({ apiRoot: `${origin}/api/v3`, token: "t0k", apiVersion: undefined });
const HOP = route("GET /hop/{hops}", { body: z.object({ name: z.string(), authorization: z.string() }) });
const AWAY = route("GET /away", { body: z.unknown() });

describe("followRedirects", () => {
  it("follows up to the bound and says where it went", async () => {
    const response = await client().get(HOP, { hops: "1" }, { followRedirects: 2 });
    expect(response.data).toEqual({ name: "done", authorization: "Bearer t0k" });
    expect(response.redirectedTo).toEqual(["/hop/0", "/done"]);
  });

  it("fails past the bound, and by default", async () => {
    await expect(client().get(HOP, { hops: "2" }, { followRedirects: 2 })).rejects.toMatchObject({
      status: 301,
    });
    await expect(client().get(HOP, { hops: "0" })).rejects.toMatchObject({ status: 301 });
  });

  it("never follows a Location on another host", async () => {
    await expect(client().get(AWAY, {}, { followRedirects: 2 })).rejects.toThrow(/another host/);
  });
});
