// Mini prize winners, derived from the same Bitcoin block hash as the main winner. Pure: no I/O, runs in the
// browser on the verification page.
//
// The rule (documented in docs/decisions/072-mini-prizes.md):
// - The candidates are the fans holding a valid entry of the pool, other than the main winner; a fan with several
//   entries counts once, at their lowest entry number; candidates are ordered by that entry number.
// - Mini prizes are taken in the order they were fixed at the close (position 0, 1, ...).
// - For mini prize i and draw round r (r = 0, 1, ...), the index is BigInt(SHA-256(hash + ":" + i + ":" + r)) mod
//   (number of candidates not yet chosen for that prize); that candidate wins and leaves the list for this prize.
//   A prize with quantity N repeats this for r = 0..N-1 (at most as many winners as candidates).
// - A prize whose quantity is not a whole number ('unlimited') goes to every candidate.
// A fan may win several different mini prizes, but each prize at most once.

export interface MiniPrizeSpec {
  /** Free text as saved: '10', 'unlimited'. */
  quantityText: string;
}

export interface DrawCandidate {
  userId: string;
  entryNumber: number;
}

/** A mini prize's quantity: a whole number, or 'unlimited' for anything else (as the profile shows it). */
export function miniPrizeQuantity(quantityText: string): number | "unlimited" {
  const text = quantityText.trim();
  return /^\d+$/.test(text) ? Number(text) : "unlimited";
}

/** The candidates of the mini prize draw: one per fan (lowest valid entry), without the main winner. */
export function miniPrizeCandidates(
  entries: readonly { userId: string | null; entryNumber: number; void?: boolean }[],
  mainWinnerUserId: string | null,
): DrawCandidate[] {
  const byUser = new Map<string, number>();
  for (const entry of entries) {
    if (!entry.userId || entry.void || entry.userId === mainWinnerUserId) continue;
    const seen = byUser.get(entry.userId);
    if (seen === undefined || entry.entryNumber < seen) byUser.set(entry.userId, entry.entryNumber);
  }
  return [...byUser.entries()]
    .map(([userId, entryNumber]) => ({ userId, entryNumber }))
    .sort((a, b) => a.entryNumber - b.entryNumber);
}

function hexToBigInt(hex: string): bigint {
  return BigInt(`0x${hex}`);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The seed of draw round r of mini prize i: SHA-256 of `${blockHash}:${i}:${r}` (lowercase hex hash). */
export function miniPrizeSeedText(blockHash: string, prizeIndex: number, round: number): string {
  return `${blockHash.toLowerCase()}:${prizeIndex}:${round}`;
}

export interface MiniPrizeAward {
  prizeIndex: number;
  round: number;
  userId: string;
  entryNumber: number;
}

/** Draws every mini prize's winners by the rule above. Deterministic: the same inputs give the same winners. */
export async function drawMiniPrizes(
  blockHash: string,
  prizes: readonly MiniPrizeSpec[],
  candidates: readonly DrawCandidate[],
): Promise<MiniPrizeAward[]> {
  if (!/^[0-9a-fA-F]{64}$/.test(blockHash)) throw new RangeError("Invalid hexadecimal hash");
  const awards: MiniPrizeAward[] = [];
  for (const [prizeIndex, prize] of prizes.entries()) {
    const quantity = miniPrizeQuantity(prize.quantityText);
    if (quantity === "unlimited") {
      candidates.forEach((c, round) =>
        awards.push({ prizeIndex, round, userId: c.userId, entryNumber: c.entryNumber }),
      );
      continue;
    }
    const remaining = [...candidates];
    for (let round = 0; round < quantity && remaining.length > 0; round++) {
      const seed = hexToBigInt(await sha256Hex(miniPrizeSeedText(blockHash, prizeIndex, round)));
      const index = Number(seed % BigInt(remaining.length));
      const [winner] = remaining.splice(index, 1);
      if (winner) awards.push({ prizeIndex, round, userId: winner.userId, entryNumber: winner.entryNumber });
    }
  }
  return awards;
}

/**
 * Why a pool's mini prizes cannot change (docs/product.md#pool-settings, decision 560): once a pool has an entry,
 * people have entered for these prizes, so none can be added, changed or removed until it closes.
 */
export const MINI_PRIZES_LOCKED_MESSAGE =
  "People have entered this pool, so its mini prizes are fixed: they cannot be added, changed or removed.";

/** Whether two lists of mini prizes are the same prizes in the same order (name, amount and quantity as saved). */
export function sameMiniPrizes(
  a: readonly { name: string; amountText: string; quantityText: string }[],
  b: readonly { name: string; amountText: string; quantityText: string }[],
): boolean {
  return (
    a.length === b.length &&
    a.every((row, i) => {
      const other = b[i]!;
      return row.name === other.name && row.amountText === other.amountText && row.quantityText === other.quantityText;
    })
  );
}
