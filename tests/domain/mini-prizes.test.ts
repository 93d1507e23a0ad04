import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { drawMiniPrizes, miniPrizeCandidates, miniPrizeQuantity, miniPrizeSeedText } from "~/domain/mini-prizes";

const HASH = "00000000000000000002a7c4c1e48d76c5a37902165a270156b7a8d72728a054";

async function sha256BigInt(text: string): Promise<bigint> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let value = 0n;
  for (const byte of digest) value = (value << 8n) | BigInt(byte);
  return value;
}

const candidatesOf = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ userId: `fan-${i}`, entryNumber: i * 3 + 1 }));

describe("mini prize quantity", () => {
  it("is a whole number, or 'unlimited' for anything else", () => {
    expect(miniPrizeQuantity("10")).toBe(10);
    expect(miniPrizeQuantity(" 3 ")).toBe(3);
    expect(miniPrizeQuantity("0")).toBe(0);
    expect(miniPrizeQuantity("unlimited")).toBe("unlimited");
    expect(miniPrizeQuantity("15%")).toBe("unlimited");
    expect(miniPrizeQuantity("")).toBe("unlimited");
  });
});

describe("mini prize candidates", () => {
  it("one per fan at their lowest valid entry, without the main winner, void entries or anonymous ones, by entry number", () => {
    const entries = [
      { userId: "ana", entryNumber: 4 },
      { userId: "ben", entryNumber: 1 },
      { userId: "ana", entryNumber: 2 },
      { userId: "winner", entryNumber: 0 },
      { userId: "winner", entryNumber: 7 },
      { userId: "cleo", entryNumber: 3, void: true },
      { userId: "cleo", entryNumber: 9 },
      { userId: null, entryNumber: 5 },
      { userId: "dan", entryNumber: 6, void: true },
    ];
    expect(miniPrizeCandidates(entries, "winner")).toEqual([
      { userId: "ben", entryNumber: 1 },
      { userId: "ana", entryNumber: 2 },
      { userId: "cleo", entryNumber: 9 },
    ]);
  });
});

describe("mini prize draw", () => {
  it("round 0 of prize 0 picks the candidate at SHA-256('<hash>:0:0') mod candidates, as documented", async () => {
    const candidates = candidatesOf(7);
    const [first] = await drawMiniPrizes(HASH, [{ quantityText: "1" }], candidates);
    const index = Number((await sha256BigInt(`${HASH}:0:0`)) % 7n);
    expect(miniPrizeSeedText(HASH.toUpperCase(), 0, 0)).toBe(`${HASH}:0:0`);
    expect(first).toEqual({
      prizeIndex: 0,
      round: 0,
      userId: candidates[index]!.userId,
      entryNumber: candidates[index]!.entryNumber,
    });
  });

  it("the second round draws among the candidates the first left", async () => {
    const candidates = candidatesOf(5);
    const awards = await drawMiniPrizes(HASH, [{ quantityText: "2" }], candidates);
    const remaining = [...candidates];
    const expected = [];
    for (const round of [0, 1]) {
      const [picked] = remaining.splice(
        Number((await sha256BigInt(`${HASH}:0:${round}`)) % BigInt(remaining.length)),
        1,
      );
      expected.push(picked!.entryNumber);
    }
    expect(awards.map((a) => a.entryNumber)).toEqual(expected);
  });

  it("an 'unlimited' prize goes to every candidate; a quantity above the candidates gives each one once", async () => {
    const candidates = candidatesOf(4);
    const awards = await drawMiniPrizes(
      HASH,
      [{ quantityText: "unlimited" }, { quantityText: "10" }, { quantityText: "0" }],
      candidates,
    );
    expect(awards.filter((a) => a.prizeIndex === 0).map((a) => a.userId)).toEqual(candidates.map((c) => c.userId));
    expect(
      awards
        .filter((a) => a.prizeIndex === 1)
        .map((a) => a.userId)
        .sort(),
    ).toEqual(candidates.map((c) => c.userId).sort());
    expect(awards.filter((a) => a.prizeIndex === 2)).toEqual([]);
  });

  it("refuses a hash that is not 64 hex digits", async () => {
    await expect(drawMiniPrizes("xyz", [{ quantityText: "1" }], candidatesOf(2))).rejects.toThrow(RangeError);
  });

  it("is reproducible and fair in shape: same inputs same winners, distinct per prize, min(quantity, candidates) each (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.stringMatching(/^[0-9a-f]{64}$/),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.constant("unlimited")), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: 0, max: 15 }),
        async (hash, quantities, n) => {
          const prizes = quantities.map((quantityText) => ({ quantityText }));
          const candidates = candidatesOf(n);
          const awards = await drawMiniPrizes(hash, prizes, candidates);
          expect(await drawMiniPrizes(hash.toUpperCase(), prizes, candidates)).toEqual(awards);
          quantities.forEach((q, i) => {
            const won = awards.filter((a) => a.prizeIndex === i).map((a) => a.userId);
            expect(new Set(won).size).toBe(won.length);
            expect(won.length).toBe(q === "unlimited" ? n : Math.min(Number(q), n));
            for (const userId of won) expect(candidates.some((c) => c.userId === userId)).toBe(true);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
