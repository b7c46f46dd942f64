/**
 * Every read function's declaration, once: the package schema's functions and the native plugin's
 * invokes derive from this list.
 */
import type { FunctionDeclaration } from "../internal/declare";

export const FUNCTIONS: readonly FunctionDeclaration[] = [];
