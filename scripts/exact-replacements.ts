/**
 * A dependency's file with each [its code, the replacement] applied, for the build's small changes to React and
 * React Router (decisions 250 and 320). Every piece must occur exactly once: when a release has changed one, this
 * throws `${what} no longer contains exactly one "<its first line>". ${advice}`, so the change is looked at again
 * instead of applied blindly.
 */
export function applyExactReplacements(
  code: string,
  replacements: readonly (readonly [string, string])[],
  what: string,
  advice: string,
): string {
  let out = code;
  for (const [from, to] of replacements) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + from.length) >= 0) {
      throw new Error(`${what} no longer contains exactly one ${JSON.stringify(from.split("\n")[0])}. ${advice}`);
    }
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}
