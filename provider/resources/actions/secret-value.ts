/**
 * A secret's value, which the platform never shows back, through a resource's life:
 *
 * - check replaces the program's value by a salted digest (`internal/secret-digest.ts`), which is
 *   what state records under `value`, in inputs and outputs, as a secret. The same value keeps the
 *   recorded digest (no change); another one gets a new digest (an update, which seals and sends
 *   it). The plaintext lives only in this process's memory, from check to create or update.
 * - create and update record the server's `updated_at` after their write. A read that finds a
 *   later one knows the secret was written outside Pulumi since (the value is the only thing a
 *   repository or environment secret has to change), and reports `value` as `VALUE_SET_OUTSIDE`:
 *   the drift check names `value`, and the next `up` (after a refresh) seals and sends the
 *   program's value again. A read that finds the same `updated_at` reports the recorded digest, so
 *   no plan shows a change of a value that did not change.
 * - A read with nothing recorded (an import, `get`) reports `VALUE_SET_OUTSIDE` too: the secret
 *   holds a value no one can see. As the placeholder of a program `pulumi import` wrote, it is
 *   kept and never sent; a real value in its place is sent by the next `up`.
 */
import { configurationError } from "../../client/errors";
import { UNKNOWN } from "../../internal/check";
import { digestFor, isDigest, plaintextOf } from "../../internal/secret-digest";

/**
 * What read reports as the value of a secret written outside Pulumi since state recorded it, or
 * read with nothing recorded (an import). The webhooks' placeholder of a secret the server holds
 * but Pulumi never set reads the same.
 */
export const VALUE_SET_OUTSIDE = "(set outside Pulumi)";

/**
 * The inputs state records for the program's: the value replaced by its digest. The recorded
 * digest is kept while the value matches it, and so is what the engine hands back as it recorded it
 * (`ignoreChanges` on value: the digest, or `VALUE_SET_OUTSIDE`). Refused inputs are
 * recorded without the value; a value unknown at preview is the engine's placeholder, kept.
 */
export async function recordSecretValue(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  failed: boolean,
): Promise<Record<string, unknown>> {
  const { value, ...rest } = news;
  if (value === undefined || value === UNKNOWN) return news;
  if (failed) return rest;
  const handedBack = value === olds.value && (isDigest(value) || value === VALUE_SET_OUTSIDE);
  if (handedBack) return news;
  return { ...rest, value: await digestFor(String(value), olds.value) };
}

/** Two server timestamps naming the same instant (whatever their precision or form). */
function sameInstant(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(x) || Number.isNaN(y) ? a === b : x === y;
}

/**
 * The value a read reports: what state recorded while the server's `updated_at` is the one
 * recorded with it, else `VALUE_SET_OUTSIDE`, as for a read with nothing recorded (an import).
 */
export function valueAfterRead(
  recorded: { value?: string | undefined; updatedAt?: string | undefined } | undefined,
  updatedAt: string,
): string {
  const value = recorded?.value;
  const since = recorded?.updatedAt;
  if (value === undefined || since === undefined || since === "") return VALUE_SET_OUTSIDE;
  return sameInstant(since, updatedAt) ? value : VALUE_SET_OUTSIDE;
}

/**
 * The plaintext behind a recorded digest, seen by check in this process. `required`: the value
 * must be sent (it is new, or was changed outside Pulumi), so a digest without its plaintext at
 * hand (an `ignoreChanges` on value that kept an old digest) is an error saying what to do.
 */
export function plaintextFor(what: string, value: string | undefined, required: boolean): string | undefined {
  const plaintext = value === undefined ? undefined : plaintextOf(value);
  if (plaintext === undefined && required) {
    throw configurationError(
      `${what}: the value to send is not known to this run (only its digest is), e.g. because of ignoreChanges on value`,
      "Give the value in the program and run pulumi up again",
    );
  }
  return plaintext;
}
