/**
 * The sandbox server's state: the fixture plus everything created through the API, kept as one
 * JSON document. With a data file it survives restarts: every change is written to a temporary file
 * and renamed over the old one, so a crash never leaves half a file behind.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { defaultFixture, type Fixture } from "./fixture";

export interface StoredHookConfig {
  url: string;
  content_type: "json" | "form";
  insecure_ssl: "0" | "1";
  secret?: string;
}

export interface StoredHook {
  id: number;
  /** `owner/repo` (lower case) for repository hooks; absent for global hooks. */
  repo?: string;
  active: boolean;
  events: string[];
  config: StoredHookConfig;
  created_at: string;
  updated_at: string;
  last_response: { code: number | null; status: string; message: string | null };
}

export interface Delivery {
  id: number;
  guid: string;
  hook_id: number;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

export interface EmulatorState {
  schema: 1;
  nextId: number;
  fixture: Fixture;
  repoHooks: StoredHook[];
  globalHooks: StoredHook[];
  deliveries: Delivery[];
}

const STATE_SCHEMA = 1;

export function freshState(fixture: Fixture = defaultFixture()): EmulatorState {
  return {
    schema: STATE_SCHEMA,
    nextId: 1,
    fixture: structuredClone(fixture),
    repoHooks: [],
    globalHooks: [],
    deliveries: [],
  };
}

export class Store {
  state: EmulatorState;

  constructor(
    private readonly fixture: Fixture,
    private readonly dataFile: string | undefined,
  ) {
    this.state = this.load() ?? freshState(fixture);
    this.save();
  }

  nextId(): number {
    return this.state.nextId++;
  }

  newGuid(): string {
    return randomUUID();
  }

  reset(): void {
    this.state = freshState(this.fixture);
    this.save();
  }

  /** Writes the state to the data file, when there is one (atomic: temp file, then rename). */
  save(): void {
    if (!this.dataFile) return;
    mkdirSync(dirname(this.dataFile), { recursive: true });
    const temp = `${this.dataFile}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state));
    renameSync(temp, this.dataFile);
  }

  private load(): EmulatorState | undefined {
    if (!this.dataFile) return undefined;
    let text: string;
    try {
      text = readFileSync(this.dataFile, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
    const parsed = JSON.parse(text) as EmulatorState;
    if (parsed.schema !== STATE_SCHEMA) {
      throw new Error(
        `${this.dataFile} holds sandbox state of schema ${parsed.schema}; expected ${STATE_SCHEMA}`,
      );
    }
    return parsed;
  }
}

/** Timestamps as the platform writes them: ISO 8601, seconds precision, `Z`. */
export function timestamp(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
