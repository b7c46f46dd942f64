/**
 * The environment of a `go build` or `go vet` against the Pulumi Go SDK that scripts/languages.sh
 * prepared: offline, with that preparation's flags.
 *
 * - `-trimpath`, as the preparation compiled the SDK: the build cache then serves its packages
 *   whatever the program's folder. Without it a machine's first run compiled the SDK and its
 *   dependencies again (84 s and 160 CPU-s for one `go vet`).
 * - `-mod=mod`, `GOSUMDB=off`: the program's go.sum is written by the build (no checksum database
 *   on these machines).
 * - `GOPROXY=off`: every module is in the module cache (the preparation downloaded them); a build
 *   that asked the proxy waited 0.6 to 4.5 s on it, as the network was.
 */
export const GO_PREPARED_ENV = {
  GOFLAGS: "-mod=mod -trimpath",
  GOSUMDB: "off",
  GOPROXY: "off",
  GOTOOLCHAIN: "local",
} as const;
