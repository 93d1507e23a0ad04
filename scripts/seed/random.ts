// The seed's clock and its deterministic choices. Ids are random UUIDs; every other choice comes from one seeded
// generator, so the demo data is the same on every run as long as the choices are made in the same order.

export const NOW = Date.now();
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const daysAgo = (days: number) => new Date(NOW - days * DAY);
export const daysAhead = (days: number) => new Date(NOW + days * DAY);

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const random = mulberry32(2026);
export const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
export const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
export const chance = (p: number) => random() < p;
export function sample<T>(items: readonly T[], n: number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.min(n, copy.length));
}
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const token = (length: number) => Array.from({ length }, () => pick([...ALNUM])).join("");
export const digits = (length: number) => Array.from({ length }, () => String(int(0, 9))).join("");
