/**
 * Text read from a server, as a string literal of each language the writers write. Values are
 * untrusted: whatever they hold, the literal is valid in its language and reads back as exactly the
 * value, and nothing in it is invisible to a reviewer. Every character a compiler, a parser or a
 * reader's eye may take for something else is written as an escape: control characters (NUL, DEL,
 * the C1 range), format characters (the byte order mark, bidirectional overrides, zero-width
 * joiners), the line and paragraph separators, and the noncharacters U+FFFE and U+FFFF. A lone
 * UTF-16 surrogate has no UTF-8 form, so no Pulumi program carries one (the engine speaks UTF-8):
 * discovery leaves out any object holding one (discover.ts), and a writer given one refuses it.
 */

/** The characters written as escapes, `\n` aside (each writer has its own way with line breaks). */
const ESCAPED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/gu;

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a lone surrogate, which no Pulumi program can carry. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** Whether `text` holds a character the writers escape (other than a line break). */
export function needsEscapes(text: string): boolean {
  return /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/u.test(text.replaceAll("\n", ""));
}

/** Refuses a lone surrogate: `where` names the value in the error. */
function carriable(text: string, where: string): void {
  if (hasLoneSurrogate(text)) {
    throw new Error(
      `${where} holds a lone UTF-16 surrogate, which a Pulumi program cannot carry (its engine speaks UTF-8)`,
    );
  }
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/**
 * A double-quoted literal in JSON's escapes (which TypeScript, Python and Go all read the same
 * way), the escaped characters as `\uXXXX`, or as `astral(codePoint)` beyond the BMP.
 */
function quoted(text: string, astral: (codePoint: number) => string): string {
  return JSON.stringify(text).replace(ESCAPED, (c) => {
    const n = c.codePointAt(0) ?? 0;
    return n > 0xffff ? astral(n) : `\\u${hex(n, 4)}`;
  });
}

/** A TypeScript (and JSON) string literal: beyond the BMP, the two halves as `\uXXXX` each. */
export function tsString(text: string, where = "a value"): string {
  carriable(text, where);
  return quoted(text, (n) => {
    const high = Math.floor((n - 0x10000) / 0x400) + 0xd800;
    const low = ((n - 0x10000) % 0x400) + 0xdc00;
    return `\\u${hex(high, 4)}\\u${hex(low, 4)}`;
  });
}

/** A Python string literal: `\UXXXXXXXX` beyond the BMP (two `\u` would be two surrogates there). */
export function pyString(text: string, where = "a value"): string {
  carriable(text, where);
  return quoted(text, (n) => `\\U${hex(n, 8)}`);
}

/** A Go interpreted string literal: `\UXXXXXXXX` beyond the BMP (Go has no surrogates at all). */
export function goString(text: string, where = "a value"): string {
  carriable(text, where);
  return quoted(text, (n) => `\\U${hex(n, 8)}`);
}

/**
 * A YAML double-quoted scalar (YAML's escapes include JSON's); for the text of a scalar the `yaml`
 * package would otherwise write with some of these characters as they are.
 */
export function yamlDoubleQuoted(text: string, where = "a value"): string {
  carriable(text, where);
  return quoted(text, (n) => `\\U${hex(n, 8)}`);
}

/**
 * Text for a comment of any of the languages: one line, no control or format characters, and no
 * sequence that ends a block comment (`*\/`), each replaced by a visible stand-in.
 */
export function commentText(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\uFFFE\uFFFF]/gu, "\uFFFD").replaceAll("*/", "*\\/");
}
