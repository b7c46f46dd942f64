/**
 * Shared set-up of the function suites: a sandbox server per file, reset before each test, and the
 * settings a plain script has (`HOSTING_BASE_URL`, `HOSTING_TOKEN`): outside a Pulumi program the
 * functions read the environment.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeEach } from "vitest";
import type { RunningEmulator } from "../../../emulator/index";
import { useSandbox } from "../resources/helpers";

export function useFunctionSandbox(bind: (emulator: RunningEmulator) => void): void {
  let emulator: RunningEmulator | undefined;
  const saved = { base: process.env.HOSTING_BASE_URL, token: process.env.HOSTING_TOKEN };
  useSandbox((e) => {
    emulator = e;
    bind(e);
  });
  beforeEach(() => {
    if (!emulator) return;
    useEnvironmentToken(emulator, "svcp_siteadmin");
  });
  afterAll(() => {
    restore("HOSTING_BASE_URL", saved.base);
    restore("HOSTING_TOKEN", saved.token);
  });
}

export function useEnvironmentToken(emulator: RunningEmulator, token: string): void {
  process.env.HOSTING_BASE_URL = emulator.origin;
  process.env.HOSTING_TOKEN = token;
}

function restore(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}

/** The requests of the last test as `METHOD route` -> count (the sandbox counts by route). */
export function counts(emulator: RunningEmulator): Record<string, number> {
  return emulator.controls.counts().byRoute;
}

/** An Output's value and whether it is secret, as the engine would see them. */
export async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => {
    output.apply((v) => {
      resolve(v);
      return v;
    });
  });
  return { value, secret: await pulumi.isSecret(output) };
}
