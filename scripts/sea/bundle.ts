/**
 * The plugin as one CommonJS file with everything it requires (esbuild), for a single executable
 * application (scripts/sea/executable.ts), which can `require` only Node's built-in modules.
 *
 * The entry is the built plugin (dist/provider/plugin/cli.js), the code the npm package runs, with
 * three changes made while bundling, each failing the bundle when the code it expects is gone:
 *
 * - `provider/plugin/package.js` is replaced by scripts/sea/package.ts: the release's version and
 *   schema are built in, since there is no package folder beside an executable;
 * - `provider/plugin/proto.js` loads @grpc/grpc-js and google-protobuf through a `require` made
 *   from @pulumi/pulumi's location (so the plugin uses the copies the SDK's generated messages were
 *   made with); bundled, those become plain `require`s resolved from the same place;
 * - @pulumi/pulumi's closure serialiser, which `dynamic.Resource` loads only when a program
 *   declares a dynamic resource (never in the plugin), is left out: it would bring TypeScript and
 *   the Automation API, over 15 MB the plugin never runs. Loading it fails saying so.
 *
 * Everything else bundles as is: the SDK's generated protobuf modules, grpc-js, protobufjs,
 * undici, zod, openpgp (ESM) and libsodium-wrappers (its WebAssembly is inside its JavaScript),
 * each loaded when the plugin first needs it, as under Node.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build, type Plugin } from "esbuild";

export interface BundleOptions {
  /** The repository root (its dist/ built). */
  root: string;
  /** The file to write. */
  outfile: string;
  /** The release's version and schema (JSON text), built into the bundle. */
  version: string;
  schema: string;
}

/** What the bundle is made of, by package, for the release notes and a test. */
export interface BundleResult {
  outfile: string;
  bytes: number;
  /** Bytes in the output per package (`@grpc/grpc-js`) or `pulumi-hosting` for the project's own code. */
  byPackage: Record<string, number>;
}

/** The closure serialiser's module, as @pulumi/pulumi's dynamic module requires it. */
const SERIALISER = /^\.\.\/runtime\/closure\/serializeClosure$/;

/** A `require(...)` made with `createRequire` from @pulumi/pulumi's location in proto.js. */
const FROM_SDK_CALL = /\bfromSdk\((["'][^"']+["'])\)/g;
const FROM_SDK_DECLARATION = /^const fromSdk = .*createRequire.*require\.resolve\("@pulumi\/pulumi"\).*;$/m;

function plugin(options: BundleOptions): Plugin {
  const sdkDir = dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [options.root] }));
  return {
    name: "pulumi-hosting-sea",
    setup(on) {
      on.onLoad({ filter: /[\\/]dist[\\/]provider[\\/]plugin[\\/]package\.js$/ }, () => ({
        contents: readFileSync(join(options.root, "scripts", "sea", "package.ts"), "utf8"),
        loader: "ts",
        resolveDir: join(options.root, "scripts", "sea"),
      }));
      on.onLoad({ filter: /[\\/]dist[\\/]provider[\\/]plugin[\\/]proto\.js$/ }, (args) => {
        const source = readFileSync(args.path, "utf8");
        if (!FROM_SDK_DECLARATION.test(source) || source.match(FROM_SDK_CALL) === null) {
          throw new Error(
            `${args.path} no longer loads grpc-js and google-protobuf through createRequire(require.resolve("@pulumi/pulumi")): update scripts/sea/bundle.ts`,
          );
        }
        return {
          contents: source.replace(FROM_SDK_DECLARATION, "").replace(FROM_SDK_CALL, "require($1)"),
          loader: "js",
          // Resolved from the SDK's folder: the copies its generated messages use.
          resolveDir: sdkDir,
        };
      });
      on.onResolve({ filter: SERIALISER }, (args) =>
        args.importer.includes("@pulumi") ? { path: args.path, namespace: "left-out" } : undefined,
      );
      on.onLoad({ filter: /.*/, namespace: "left-out" }, () => ({
        contents:
          'throw new Error("pulumi-resource-hosting: the closure serialiser of @pulumi/pulumi is not in the plugin executable (only programs with dynamic resources use it)");',
        loader: "js",
      }));
    },
  };
}

export async function bundlePlugin(options: BundleOptions): Promise<BundleResult> {
  const result = await build({
    entryPoints: [join(options.root, "dist", "provider", "plugin", "cli.js")],
    outfile: options.outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    // The built files' source maps and declarations sit beside the kinds, which a template
    // `require` in internal/resource.js names by pattern: they add nothing to the bundle.
    loader: { ".map": "empty" },
    define: {
      PULUMI_HOSTING_RELEASE_VERSION: JSON.stringify(options.version),
      PULUMI_HOSTING_RELEASE_SCHEMA: JSON.stringify(options.schema),
    },
    // Names kept: the SDK and grpc-js report errors by class and function names.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
    plugins: [plugin(options)],
  });
  for (const warning of result.warnings) {
    // The only `require.resolve` left is npm's run-script, reached from nowhere the plugin runs.
    if (warning.id === "require-resolve-not-external") continue;
    process.stderr.write(`bundle: ${warning.text} (${warning.location?.file ?? ""})\n`);
  }
  const output = Object.values(result.metafile.outputs)[0];
  if (output === undefined) throw new Error("bundle: esbuild wrote nothing");
  const byPackage: Record<string, number> = {};
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = match?.[1] ?? "pulumi-hosting";
    byPackage[name] = (byPackage[name] ?? 0) + bytesInOutput;
  }
  return { outfile: options.outfile, bytes: output.bytes, byPackage };
}
