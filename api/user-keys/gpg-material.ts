/**
 * GPG key material checked on this machine, before any request: an ASCII-armored PGP public key
 * read with `openpgp`. The sandbox server checks keys with this code, so a key it refuses fails at
 * preview.
 *
 * `openpgp` is an ES module, loaded with `import()` only when a GPG key is checked or matched, so
 * a provider process serving other kinds never pays for it.
 */
import type * as openpgp from "openpgp" with { "resolution-mode": "import" };

export const PGP_PUBLIC_KEY_HEADER = "-----BEGIN PGP PUBLIC KEY BLOCK-----";
export const PGP_PRIVATE_KEY_HEADER = "-----BEGIN PGP PRIVATE KEY BLOCK-----";

let library: Promise<typeof openpgp> | undefined;
/** `openpgp`, loaded once, on first use (the sandbox server's key routes use it too). */
export const loadOpenpgp = (): Promise<typeof openpgp> => {
  library ??= import("openpgp");
  return library;
};

/** The armored text as compared: line endings and surrounding blank space do not matter. */
export function normaliseArmored(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

/**
 * The most signatures a key may hold of its own making (self-certifications, revocations, direct
 * and subkey binding signatures): each is a signature check when the key is read. A long-lived key
 * re-certified every year holds a few dozen; at the slowest curves (P-521, brainpoolP512r1, about
 * 4 ms a check here) the limit keeps reading one under half a second (docs/DECISIONS.md).
 */
export const GPG_SELF_SIGNATURE_LIMIT = 100;

/** A key's signatures that reading it checks against the key itself, by where they are. */
export function gpgSelfSignatures(key: openpgp.Key): openpgp.SignaturePacket[] {
  const direct = (key as openpgp.Key & { directSignatures?: openpgp.SignaturePacket[] }).directSignatures;
  return [
    ...(direct ?? []),
    ...key.revocationSignatures,
    ...key.users.flatMap((u) => [...u.selfCertifications, ...u.revocationSignatures]),
    ...key.subkeys.flatMap((s) => [...s.bindingSignatures, ...s.revocationSignatures]),
  ];
}

/** Why a parsed key is more than the server reads, or undefined: too many signatures of its own. */
export function gpgKeyTooLarge(key: openpgp.Key): string | undefined {
  const count = gpgSelfSignatures(key).length;
  if (count <= GPG_SELF_SIGNATURE_LIMIT) return undefined;
  return (
    `holds ${count} signatures of its own (self-certifications, revocations, subkey bindings); at most ` +
    `${GPG_SELF_SIGNATURE_LIMIT} are read. Export it without the superseded ones: ` +
    "gpg --armor --export --export-options export-minimal <key id>"
  );
}

/**
 * The 16-hex-digit key id (upper case, as the platform shows it) of an ASCII-armored PGP public
 * key, or why the block is not one the platform takes: it does not parse (malformed, truncated, a
 * message or a signature), it holds a private key, or it has more signatures of its own than are
 * read (`gpgKeyTooLarge`). No signature is checked.
 */
export async function readGpgKeyId(armored: string): Promise<{ keyId: string } | { problem: string }> {
  const lib = await loadOpenpgp();
  let key: openpgp.Key;
  try {
    key = await lib.readKey({ armoredKey: armored });
  } catch (e) {
    return { problem: `does not parse as a PGP public key block (${(e as Error).message})` };
  }
  if (key.isPrivate()) return { problem: "holds a private key; give the public key only" };
  const tooLarge = gpgKeyTooLarge(key);
  if (tooLarge) return { problem: tooLarge };
  return { keyId: key.getKeyID().toHex().toUpperCase() };
}
