/**
 * What the programs in `examples/` declare, for the reference pages' examples (scripts/reference.ts):
 * each TypeScript program is run under Pulumi's mocks (no engine, no state) against an in-process
 * sandbox server (for the functions a program calls), and this prints, as JSON, each resource it
 * declares with the arguments it really gave (every loop, spread and setting resolved), and each
 * function call with its arguments. A secret argument is written `{"$secret": true}`; an argument
 * that is another resource's output, `{"$ref": {kind, name, output}}`.
 *
 * Run by scripts/reference.ts as a process of its own (`node dist/scripts/reference-capture.js
 * ROOT`), since Pulumi's mocks are global to a process; needs `npm run build` first.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import Module from "node:module";
import { join } from "node:path";

/** One resource a program declared. */
export interface CapturedResource {
  /** The folder below examples/ of the program that declared it. */
  folder: string;
  kind: string;
  name: string;
  /** The arguments, in the order of the declaration's inputs. */
  args: Record<string, unknown>;
}

/** One function call a program made. */
export interface CapturedCall {
  folder: string;
  function: string;
  args: Record<string, unknown>;
}

export interface Captured {
  resources: CapturedResource[];
  calls: CapturedCall[];
  /** Programs that stopped with an error (what they declared before it is kept). */
  failures: Array<{ folder: string; message: string }>;
}

/** How Pulumi's mocks receive a secret. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
/** The text a resource's output holds under the mocks, naming it, so an argument given it is a reference. */
const REF = "\u0000ref\u0000";

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;

async function capture(root: string): Promise<Captured> {
  const dist = join(root, "dist");
  const req = Module.createRequire(join(root, "package.json"));
  const ts = req("typescript") as typeof import("typescript");
  const pulumi = req("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  const { PROVIDERS } = req(join(dist, "provider/providers.js")) as typeof import("../provider/providers");
  const { FUNCTIONS } = req(join(dist, "provider/registry.js")) as typeof import("../provider/registry");
  const { startEmulator } = req(join(dist, "emulator/index.js")) as typeof import("../emulator/index");
  const hosting = req(join(dist, "provider/index.js")) as Record<string, unknown>;

  const emulator = await startEmulator();
  process.env.HOSTING_BASE_URL = emulator.url;
  process.env.HOSTING_TOKEN = "svcp_siteadmin";
  const result: Captured = { resources: [], calls: [], failures: [] };
  let folder = "";
  /** Resources constructed, by kind and name: the folder that declared each, in program order. */
  const declared: Array<{ kind: string; name: string; folder: string }> = [];
  const outputsOf = new Map(
    PROVIDERS.map((p) => [p.kind, Object.keys(p.declared.outputs.shape as Record<string, unknown>)]),
  );
  const inputsOf = new Map(
    PROVIDERS.map((p) => [p.kind, Object.keys(p.declared.inputs.shape as Record<string, unknown>)]),
  );

  pulumi.runtime.setMocks(
    {
      newResource(args) {
        const kind = args.type.replace(/^.*hosting:/, "");
        const at = declared.find((d) => d.kind === kind && d.name === args.name && d.folder !== "");
        const order = inputsOf.get(kind) ?? [];
        const given: Record<string, unknown> = {};
        for (const key of order) {
          const value = args.inputs[key];
          if (value !== undefined) given[key] = plain(value);
        }
        if (at !== undefined) {
          result.resources.push({ folder: at.folder, kind, name: args.name, args: given });
          at.folder = "";
        }
        const state: Record<string, unknown> = { ...args.inputs };
        for (const output of outputsOf.get(kind) ?? []) {
          state[output] ??= `${REF}${kind}\u0000${args.name}\u0000${output}`;
        }
        return { id: `${args.name}-id`, state };
      },
      call() {
        return {};
      },
    },
    "reference",
    "examples",
    false,
  );

  // The library as a program imports it, each resource class noting where it was declared and
  // each function the arguments it was called with.
  const library: Record<string, unknown> = { ...hosting };
  for (const p of PROVIDERS) {
    const Base = hosting[p.kind] as new (name: string, args: unknown, opts?: unknown) => object;
    library[p.kind] = class extends Base {
      constructor(name: string, args: unknown, opts?: unknown) {
        super(name, args, opts);
        declared.push({ kind: p.kind, name, folder });
      }
    };
  }
  for (const fn of FUNCTIONS) {
    for (const name of [fn.name, `${fn.name}Output`]) {
      const original = hosting[name] as (...args: unknown[]) => unknown;
      library[name] = (args: Record<string, unknown>, ...rest: unknown[]) => {
        if (isPlain(args)) result.calls.push({ folder, function: fn.name, args: { ...args } });
        return original(args, ...rest);
      };
    }
  }
  const libraryId = join(dist, "provider", "reference-capture-library.js");
  const libraryModule = new Module(libraryId);
  libraryModule.exports = library;
  libraryModule.loaded = true;
  req.cache[libraryId] = libraryModule;
  const internal = Module as unknown as { _resolveFilename: Resolve };
  const resolveFilename = internal._resolveFilename;
  internal._resolveFilename = function (this: unknown, request, parent, ...rest) {
    if (request === "pulumi-hosting") return libraryId;
    return resolveFilename.call(this, request, parent, ...rest);
  };
  const extensions = req.extensions as unknown as Record<string, (m: Module, file: string) => void>;
  extensions[".ts"] = (m, file) => {
    const { outputText } = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
      },
      fileName: file,
    });
    (m as unknown as { _compile(code: string, file: string): void })._compile(outputText, file);
  };

  try {
    const examples = join(root, "examples");
    for (const name of readdirSync(examples).sort()) {
      const index = join(examples, name, "index.ts");
      if (!existsSync(join(examples, name, "Pulumi.yaml")) || !existsSync(index)) continue;
      folder = name;
      try {
        const program: unknown = req(index);
        if (typeof program === "function") await program();
      } catch (error) {
        result.failures.push({
          folder: name,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    folder = "";
    // The mocks hear of each resource once its inputs are resolved: wait for every one declared.
    const deadline = Date.now() + 30_000;
    while (declared.some((d) => d.folder !== "") && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    internal._resolveFilename = resolveFilename;
    await emulator.close();
  }
  return result;
}

/** Whether a function's arguments are plain values (an `...Output` call may be given Outputs). */
function isPlain(value: unknown): boolean {
  if (value === null || typeof value !== "object") return typeof value !== "function";
  if (Array.isArray(value)) return value.every(isPlain);
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isPlain);
}

/** An input as the mocks give it, secrets and references marked. */
function plain(value: unknown): unknown {
  if (typeof value === "string" && value.startsWith(REF)) {
    const [kind, name, output] = value.slice(REF.length).split("\u0000");
    return { $ref: { kind, name, output } };
  }
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") {
    if (SECRET_SIG in value) return { $secret: true };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

if (require.main === module) {
  const root = process.argv[2];
  if (root === undefined) {
    console.error("usage: node dist/scripts/reference-capture.js ROOT");
    process.exit(2);
  }
  capture(root).then(
    (captured) => {
      process.stdout.write(`${JSON.stringify(captured)}\n`);
      // The mocks and the SDK keep timers of their own: nothing more is waited for.
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.exit(1);
    },
  );
}
