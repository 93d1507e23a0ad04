import type { Plugin } from "vite";

/**
 * A dependency's file with each [its code, the replacement] applied, for the build's small changes to React and
 * React Router (decisions 250, 320 and 360). Every piece must occur exactly once, or exactly as often as its third
 * item says (a function React repeats word for word in two exports): when a release has changed one, this throws
 * `${what} no longer contains exactly one "<its first line>"` (or "exactly 2"), followed by `advice`, so the change is
 * looked at again instead of applied blindly.
 */
export function applyExactReplacements(
  code: string,
  replacements: readonly (readonly [from: string, to: string, times?: number])[],
  what: string,
  advice: string,
): string {
  let out = code;
  for (const [from, to, times = 1] of replacements) {
    const pieces = out.split(from);
    if (pieces.length !== times + 1) {
      throw new Error(
        `${what} no longer contains exactly ${times === 1 ? "one" : times} ${JSON.stringify(from.split("\n")[0])}. ${advice}`,
      );
    }
    out = pieces.join(to);
  }
  return out;
}

/**
 * A build plugin that changes one dependency file (`file` matches its path) with `change` when it is bundled, for
 * the server build's changes to React (decisions 250 and 360).
 */
export function changeFilePlugin(name: string, file: RegExp, change: (code: string) => string): Plugin {
  return {
    name,
    enforce: "pre",
    transform(code, id) {
      if (!file.test(id.split("?")[0]!)) return null;
      return { code: change(code), map: null };
    },
  };
}
