import type { Plugin } from "vite";

/** [the dependency's code, its replacement, how often the code occurs (1 unless said)]. */
export type Replacement = readonly [from: string, to: string, times?: number];

/**
 * Where `from` stops matching `code`: its first line's line number in the file and the first of its lines that
 * differs there, or that its first line is nowhere, so a failed replacement names the file's line to look at.
 */
function whereItDiffers(code: string, from: string): string {
  const wanted = from.split("\n");
  // Of the places the first line occurs, the one where most of the lines are as expected.
  let best: { line: number; same: number; differs: number } | null = null;
  let lines: string[] = [];
  for (let at = code.indexOf(wanted[0]!); at >= 0; at = code.indexOf(wanted[0]!, at + 1)) {
    const here = code.slice(at).split("\n", wanted.length);
    const same = wanted.filter((line, i) => here[i] === line).length;
    if (!best || same > best.same) {
      best = {
        line: code.slice(0, at).split("\n").length,
        same,
        differs: wanted.findIndex((line, i) => here[i] !== line),
      };
      lines = here;
    }
  }
  if (!best) return `its first line ${JSON.stringify(wanted[0])} is nowhere in the file`;
  if (best.differs < 0) return `it starts at line ${best.line}`;
  return `line ${best.line + best.differs} is ${JSON.stringify(lines[best.differs] ?? "(end of file)")} where the patch expects ${JSON.stringify(wanted[best.differs])}`;
}

/**
 * A dependency's file with each [its code, the replacement] applied, for the build's small changes to React and
 * React Router (patches/README.md). Every piece must occur exactly once, or exactly as often as its third item says:
 * when a release has changed one, this throws naming `file` (the pinned package and the path inside it), the line of
 * the file that differs from what the patch expects (or that the piece's first line is missing), and `advice`, so
 * the change is looked at again instead of applied blindly. Line numbers are those of the file as installed.
 */
export function applyExactReplacements(
  code: string,
  replacements: readonly Replacement[],
  file: string,
  advice: string,
): string {
  let out = code;
  for (const [from, to, times = 1] of replacements) {
    const pieces = out.split(from);
    if (pieces.length !== times + 1) {
      const found = pieces.length - 1;
      throw new Error(
        `${file} no longer contains exactly ${times === 1 ? "one" : times} ${JSON.stringify(from.split("\n")[0])} ` +
          `(found ${found}; ${found === 0 ? whereItDiffers(code, from) : "too many"}). ${advice}`,
      );
    }
    out = pieces.join(to);
  }
  return out;
}

/**
 * A build plugin that changes the dependency files `files` match with `change` when they are bundled for the server
 * (the browser's copies are left as they are). In a build, it also stops the build when one of `files` was never
 * bundled: a release that renamed or moved the file would otherwise leave the patch silently unapplied.
 */
export function changeFilesPlugin(
  name: string,
  files: readonly RegExp[],
  change: (code: string, id: string) => string,
): Plugin {
  const seen = new Set<RegExp>();
  let building = false;
  return {
    name,
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name !== "client",
    configResolved(config) {
      building = config.command === "build";
    },
    transform(code, id) {
      const path = id.split("?")[0]!;
      const file = files.find((pattern) => pattern.test(path));
      if (!file) return null;
      seen.add(file);
      return { code: change(code, path), map: null };
    },
    buildEnd(error) {
      if (!building || error) return;
      const missing = files.filter((file) => !seen.has(file));
      if (missing.length)
        this.error(
          `${name}: the server build never bundled ${missing.join(", ")}: the pinned dependency moved or renamed the ` +
            "file this patch changes. Check patches/README.md.",
        );
    },
  };
}
