import { describe, expect, it } from "vitest";
import {
  canonicalEntriesText,
  entriesDigest,
  entriesFormatOf,
  entryListSource,
  frozenEntryList,
  parseEntriesText,
  pickWinner,
  sha256Hex,
} from "~/domain/draw";
import { verifyPublishedDraw } from "~/domain/draw-verification";

// entries.txt form 2 (decision 530): each line names its entry's source (free, postal, paid...), inside the digest,
// while lists frozen in form 1 keep verifying as they always did.

const entries = [
  { entryNumber: 0, sourceKey: "checkout:cs_a", sourceType: "product_purchase" },
  { entryNumber: 1, sourceKey: "free:pool:fan:2026-11-26", sourceType: "free_entry", voided: true },
  { entryNumber: 2, sourceKey: "postal:PC-1", sourceType: "postal_entry" },
  { entryNumber: 3, sourceKey: "guess:g1", sourceType: "guess_entry" },
  { entryNumber: 4, sourceKey: "checkout:cs_b", sourceType: null },
];

describe("entries.txt form 2", () => {
  it("names each entry's source after its key, void last, and the digest covers it", async () => {
    const text = canonicalEntriesText(await frozenEntryList(entries));
    expect(text).toBe(
      [
        `0:${await sha256Hex("checkout:cs_a")}:paid`,
        `1:${await sha256Hex("free:pool:fan:2026-11-26")}:free:void`,
        `2:${await sha256Hex("postal:PC-1")}:postal`,
        `3:${await sha256Hex("guess:g1")}:guess`,
        `4:${await sha256Hex("checkout:cs_b")}:paid`,
        "",
      ].join("\n"),
    );
    expect(await entriesDigest(entries)).toBe(await sha256Hex(text));
    expect(parseEntriesText(text).map((line) => line.source)).toEqual(["paid", "free", "postal", "guess", "paid"]);
    // Relabelling an entry's source changes the digest: the operator cannot move an entry between sources later.
    const relabelled = entries.map((e) => (e.entryNumber === 2 ? { ...e, sourceType: "product_purchase" } : e));
    expect(await entriesDigest(relabelled)).not.toBe(await entriesDigest(entries));
    // Form 1 of the same list: no sources, another digest, still readable.
    const form1 = canonicalEntriesText(await frozenEntryList(entries, 1));
    expect(form1).not.toMatch(/:(paid|free|postal|guess)/);
    expect(await entriesDigest(entries, 1)).toBe(await sha256Hex(form1));
    expect(parseEntriesText(form1).every((line) => line.source === undefined)).toBe(true);
  });

  it("refuses a list mixing both forms, and an unknown source", () => {
    const key = "a".repeat(64);
    expect(() => parseEntriesText(`0:${key}:free\n1:${key.replace("a", "b")}\n`)).toThrow(RangeError);
    expect(() => parseEntriesText(`0:${key}:lottery\n`)).toThrow(RangeError);
    expect(() =>
      canonicalEntriesText([
        { entryNumber: 0, key, voided: false, source: "free" },
        { entryNumber: 1, key, voided: false },
      ]),
    ).toThrow(RangeError);
  });

  it("maps source types and reads a pool's recorded form", () => {
    expect(entryListSource("free_entry")).toBe("free");
    expect(entryListSource("postal_entry")).toBe("postal");
    expect(entryListSource("group_buy_entry")).toBe("paid");
    expect(entryListSource("share_bonus")).toBe("bonus");
    expect(entryListSource(undefined)).toBe("paid");
    expect(entriesFormatOf(2)).toBe(2);
    expect(entriesFormatOf(1)).toBe(1);
    expect(entriesFormatOf(null)).toBe(1);
  });

  it("verifies a form 2 list and counts its entries by source; a free or postal entry wins like any other", async () => {
    const text = canonicalEntriesText(await frozenEntryList(entries));
    const report = await verifyPublishedDraw({
      entriesText: text,
      publishedDigest: await sha256Hex(text),
      draws: [],
      log: [],
    });
    expect(report).toMatchObject({ digestMatches: true, parsed: true, entries: 5, validEntries: 4, voidEntries: 1 });
    expect(report.sources).toEqual([
      { source: "paid", count: 2 },
      { source: "free", count: 1 },
      { source: "postal", count: 1 },
      { source: "guess", count: 1 },
    ]);
    // Same weight: the pick runs over valid entries whatever their source (the postal entry at position 1 of 4).
    const lines = parseEntriesText(text);
    expect(pickWinner(lines, "0000000000000000000000000000000000000000000000000000000000000005").entryNumber).toBe(2);
    const form1 = await verifyPublishedDraw({
      entriesText: canonicalEntriesText(await frozenEntryList(entries, 1)),
      publishedDigest: await entriesDigest(entries, 1),
      draws: [],
      log: [],
    });
    expect(form1).toMatchObject({ digestMatches: true, parsed: true, sources: null });
  });
});
