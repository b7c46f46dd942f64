/**
 * The serialised provider used when this library is not installed under `node_modules` (a program
 * inside this repository, a linked checkout), and the one every stack written by 0.1.0 holds. It is
 * a thin shim: one string field and methods that load the package's runtime by name
 * (`pulumi-hosting/runtime`), so the state holds no token, no client and no captured library code,
 * and refresh and delete, which run the code stored in state (pulumi/pulumi#16826), run the
 * behaviour of the installed package version. Its text is part of existing states: keep it as it is.
 *
 * The methods must not reference anything from this module's scope: Pulumi serialises their source
 * text, and `require` is resolved from the program's directory in the provider process.
 */
import type * as pulumi from "@pulumi/pulumi";

export class ProviderShim implements pulumi.dynamic.ResourceProvider {
  constructor(readonly kind: string) {}

  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    require("pulumi-hosting/runtime").configure(req.config);
  }
  async check(olds: unknown, news: unknown): Promise<pulumi.dynamic.CheckResult> {
    return require("pulumi-hosting/runtime").provider(this.kind).check(olds, news);
  }
  async diff(id: string, olds: unknown, news: unknown): Promise<pulumi.dynamic.DiffResult> {
    return require("pulumi-hosting/runtime").provider(this.kind).diff(id, olds, news);
  }
  async create(inputs: unknown): Promise<pulumi.dynamic.CreateResult> {
    return require("pulumi-hosting/runtime").provider(this.kind).create(inputs);
  }
  async read(id: string, props?: unknown): Promise<pulumi.dynamic.ReadResult> {
    return require("pulumi-hosting/runtime").provider(this.kind).read(id, props);
  }
  async update(id: string, olds: unknown, news: unknown): Promise<pulumi.dynamic.UpdateResult> {
    return require("pulumi-hosting/runtime").provider(this.kind).update(id, olds, news);
  }
  async delete(id: string, props: unknown): Promise<void> {
    return require("pulumi-hosting/runtime").provider(this.kind).delete(id, props);
  }
}

const shims = new Map<string, ProviderShim>();

/** One shim per resource kind, reused by every resource of that kind (one `configure` each). */
export function shimFor(kind: string): ProviderShim {
  let shim = shims.get(kind);
  if (!shim) {
    shim = new ProviderShim(kind);
    shims.set(kind, shim);
  }
  return shim;
}
