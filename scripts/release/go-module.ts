/**
 * The Go SDK as a module zip: the file a Go module proxy serves as `<module>/@v/<version>.zip`
 * and `go mod download` checks (golang.org/x/mod/zip): every file under `<module>@<version>/`, the
 * module's own files only (no folder with a go.mod of its own, no vendor folder, no VCS folder, no
 * symbolic link), paths Go accepts, within its size limits. Written here, not by `go mod download`,
 * because that takes a module from a version control tag or a proxy, not from a folder; the
 * entries are sorted and dated 1980-01-01, so the same files always give the same bytes.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

/** golang.org/x/mod/zip's limits. */
const MAX_ZIP_FILE = 500 << 20;
const MAX_GO_MOD = 16 << 20;

/** The module path declared in a go.mod. */
export function modulePath(goMod: string): string {
  const match = /^module\s+(\S+)\s*$/m.exec(goMod);
  if (!match?.[1]) throw new Error("go.mod declares no module path");
  return match[1].replace(/^"(.*)"$/, "$1");
}

/** A path element Go accepts in a module zip (module.CheckFilePath, in short). */
function checkPath(path: string): void {
  for (const element of path.split("/")) {
    if (
      element === "" ||
      element === "." ||
      element === ".." ||
      /[^A-Za-z0-9._\-+~!#$%&()',;=@[\]^`{}]/.test(element)
    ) {
      throw new Error(`go module zip: ${JSON.stringify(path)} is not a file path Go accepts in a module`);
    }
  }
}

/** The module's files (paths relative to its folder, with `/`), as Go puts them in its zip. */
export function moduleFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if ([".git", ".hg", ".svn", ".bzr", "vendor"].includes(entry.name)) continue;
        // A folder with a go.mod of its own is another module.
        if (!existsSync(join(path, "go.mod"))) walk(path);
      } else if (entry.isFile()) {
        files.push(relative(dir, path).split(sep).join("/"));
      }
      // Symbolic links and other kinds are left out, as Go does.
    }
  };
  walk(dir);
  if (!files.includes("go.mod")) throw new Error(`go module zip: ${dir} has no go.mod`);
  return files;
}

/** The module zip of the folder `dir` at `version` (`v0.3.0`). */
export function moduleZip(dir: string, version: string): { module: string; zip: Buffer } {
  if (!/^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new Error(`go module zip: ${JSON.stringify(version)} is not a Go module version (v0.3.0)`);
  }
  if (!existsSync(join(dir, "go.mod"))) throw new Error(`go module zip: ${dir} has no go.mod`);
  const goMod = readFileSync(join(dir, "go.mod"), "utf8");
  if (Buffer.byteLength(goMod) > MAX_GO_MOD) throw new Error("go module zip: go.mod is over 16 MiB");
  const module = modulePath(goMod);
  const major = /\/v(\d+)$/.exec(module)?.[1];
  const versionMajor = /^v(\d+)/.exec(version)?.[1] ?? "";
  if ((major === undefined && Number(versionMajor) > 1) || (major !== undefined && major !== versionMajor)) {
    throw new Error(
      `go module zip: ${module} cannot have version ${version} (its major version suffix differs)`,
    );
  }
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const names = new Set<string>();
  for (const file of moduleFiles(dir)) {
    checkPath(file);
    const folded = file.toLowerCase();
    if (names.has(folded)) throw new Error(`go module zip: two files differ only in case: ${file}`);
    names.add(folded);
    const name = Buffer.from(`${module}@${version}/${file}`, "utf8");
    const data = readFileSync(join(dir, file));
    const compressed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // 00:00
    local.writeUInt16LE((0 << 9) | (1 << 5) | 1, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(8, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE((0 << 9) | (1 << 5) | 1, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressed.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    chunks.push(local, name, compressed);
    offset += local.length + name.length + compressed.length;
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.size, 8);
  end.writeUInt16LE(names.size, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  const zip = Buffer.concat([...chunks, centralBytes, end]);
  if (zip.length > MAX_ZIP_FILE) throw new Error("go module zip: over 500 MiB");
  return { module, zip };
}
