/**
 * The Python SDK's wheel and sdist, built with `python -m build` (PyPA's build frontend) in a
 * virtualenv of the cache holding pinned `build`, `setuptools` and `wheel` from PyPI, made once:
 * without build isolation, so a release needs PyPI only the first time and every release builds
 * with the same setuptools.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { cacheRoot } from "../sea/executable";

export const BUILD_REQUIREMENTS = ["build==1.6.1", "setuptools==84.2.1", "wheel==0.48.0"];

function python(): string {
  return process.env.PYTHON ?? "python3";
}

/** The build virtualenv's interpreter, made when missing or made by another interpreter. */
export function buildPython(log: (line: string) => void = () => {}): string {
  const dir = join(cacheRoot(), "python-build", "venv");
  const interpreter = join(dir, "bin", "python");
  let key: string;
  try {
    key = `${BUILD_REQUIREMENTS.join(" ")} ${execFileSync(python(), ["-c", "import sys; print(sys.version.split()[0], sys.base_prefix)"], { encoding: "utf8" }).trim()}`;
  } catch {
    throw new Error(
      `the Python SDK is built with ${python()} (PYTHON), which cannot be run: install Python 3.9 or later`,
    );
  }
  const marker = join(dir, ".pulumi-hosting.key");
  if (existsSync(marker) && readFileSync(marker, "utf8").trim() === key) return interpreter;
  log(`creating the Python build virtualenv (${BUILD_REQUIREMENTS.join(", ")} from PyPI, once) in ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync(python(), ["-m", "venv", dir], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync(
    interpreter,
    ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...BUILD_REQUIREMENTS],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  writeFileSync(marker, `${key}\n`);
  return interpreter;
}

/** Builds the sdist and the wheel of the package in `source` into `out`; returns their file names. */
export async function buildPythonPackages(
  source: string,
  out: string,
  log?: (line: string) => void,
): Promise<string[]> {
  const interpreter = buildPython(log);
  const { stdout: output } = await promisify(execFile)(
    interpreter,
    ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", out, source],
    { encoding: "utf8" },
  );
  const built = /Successfully built (.+)$/m.exec(output)?.[1];
  if (!built) throw new Error(`python -m build named nothing it built:\n${output}`);
  return built.split(/ and /).map((name) => name.trim());
}
