/** Creates without duplicates: look-ups after an ambiguous failure, and an outcome that stays unknown. */
import { describe, expect, it, vi } from "vitest";
import { HostingApiError } from "../../../provider/client/errors";
import {
  CREATE_ATTEMPTS,
  CreateOutcomeUnknown,
  createWithoutDuplicates,
  LOOKUP_ATTEMPTS,
} from "../../../provider/internal/creates";

describe("createWithoutDuplicates", () => {
  const dropped = new HostingApiError({ code: "network_error" });
  const badGateway = new HostingApiError({ code: "server_error", status: 502 });
  const noSleep = async () => {};

  it("keeps looking for what a create whose answer was lost made, while the look-up fails for passing reasons", async () => {
    // The POST acted but its answer was dropped; the first look-ups meet 502s, then one answers.
    let lookUps = 0;
    const attempt = vi.fn(async () => {
      throw dropped;
    });
    const made = await createWithoutDuplicates(
      attempt,
      async () => {
        lookUps++;
        if (lookUps < 4) throw badGateway;
        return "hook 1";
      },
      noSleep,
    );
    expect(made).toEqual({ value: "hook 1", adopted: true });
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(lookUps).toBe(4);
  });

  it("never sends the create again while it cannot know whether the first made the object", async () => {
    const attempt = vi.fn(async (): Promise<string> => {
      throw dropped;
    });
    const findMade = vi.fn(async (): Promise<string | undefined> => {
      throw badGateway;
    });
    const failure = await createWithoutDuplicates(attempt, findMade, noSleep).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CreateOutcomeUnknown);
    expect((failure as CreateOutcomeUnknown).cause).toBe(badGateway);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(findMade).toHaveBeenCalledTimes(LOOKUP_ATTEMPTS);
  });

  it("tries the create again only once a look-up says nothing was made", async () => {
    const attempt = vi.fn(async (): Promise<string> => {
      throw dropped;
    });
    await expect(createWithoutDuplicates(attempt, async () => undefined, noSleep)).rejects.toBe(dropped);
    expect(attempt).toHaveBeenCalledTimes(CREATE_ATTEMPTS);
  });
});
