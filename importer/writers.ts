/**
 * The program writers by language, for one program or for one project of a fleet (`--split`):
 * TypeScript for the dynamic resources, YAML, Python and Go for the native plugin.
 */
import { type GoProgramOptions, writeGoProgram } from "./go";
import type { Inventory } from "./inventory";
import { type PythonProgramOptions, writePythonProgram } from "./python";
import { type ProgramOptions, writeProgram } from "./typescript";
import { writeYamlProgram } from "./yaml";

export const LANGUAGES = ["typescript", "yaml", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];
export const isLanguage = (l: string): l is Language => (LANGUAGES as readonly string[]).includes(l);

/** What every writer may be given: each takes the part it needs. */
export type WriterOptions = ProgramOptions & GoProgramOptions & PythonProgramOptions;

/** File name -> contents, every file of the program in `language`. */
export function writeProgramIn(
  language: Language,
  inventory: Inventory,
  options: WriterOptions,
): Map<string, string> {
  switch (language) {
    case "yaml":
      return writeYamlProgram(inventory, options);
    case "python":
      return writePythonProgram(inventory, options);
    case "go":
      return writeGoProgram(inventory, options);
    case "typescript":
      return writeProgram(inventory, options);
  }
}
