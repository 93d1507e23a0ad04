import { useState } from "react";
import { Badge, Button, Card } from "~/components/page";
// The pure rule that drew the mini prizes on the server runs here again, in the browser.
import { drawMiniPrizes, miniPrizeQuantity } from "~/domain/mini-prizes";

export type MiniPrizeVerificationData = {
  prizes: {
    name: string;
    amountText: string;
    quantityText: string;
    winners: { entryNumber: number; name: string; delivered: boolean }[];
  }[];
  /** Each fan's lowest valid entry number, the main winner left out, ascending. */
  candidates: number[];
};

type Outcome = { status: "ok" | "failed"; detail: string };

/** Recomputes every mini prize's winners from the block hash and the candidates, and compares with the record. */
async function recompute(blockHash: string, data: MiniPrizeVerificationData): Promise<Outcome[]> {
  const candidates = data.candidates.map((entryNumber) => ({ userId: String(entryNumber), entryNumber }));
  const awards = await drawMiniPrizes(blockHash, data.prizes, candidates);
  return data.prizes.map((prize, i) => {
    const expected = awards
      .filter((a) => a.prizeIndex === i)
      .map((a) => a.entryNumber)
      .sort((a, b) => a - b);
    const recorded = prize.winners.map((w) => w.entryNumber).sort((a, b) => a - b);
    const same = expected.length === recorded.length && expected.every((n, k) => n === recorded[k]);
    const list = expected.length ? expected.map((n) => `#${n}`).join(", ") : "nobody";
    return same
      ? { status: "ok", detail: `Recomputed: ${list} — equals the recorded winners.` }
      : {
          status: "failed",
          detail: `Recomputed: ${list} — but the recorded winners are ${recorded.map((n) => `#${n}`).join(", ") || "nobody"}.`,
        };
  });
}

/**
 * The verification page's mini prize section: each mini prize, its winners, and a check that recomputes them in the
 * browser from the block hash by the rule of docs/decisions/072-mini-prizes.md.
 */
export function MiniPrizeVerification({
  blockHash,
  data,
}: {
  blockHash: string | null;
  data: MiniPrizeVerificationData | null;
}) {
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const [running, setRunning] = useState(false);
  if (!data) return null;
  const drawn = blockHash !== null && data.prizes.some((p) => p.winners.length > 0);

  const run = async () => {
    if (!blockHash) return;
    setRunning(true);
    try {
      setOutcomes(await recompute(blockHash, data));
    } finally {
      setRunning(false);
    }
  };

  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="font-semibold text-gray-900">Mini prizes</h2>
          <p className="mt-1 text-sm text-gray-600">
            The host's own gifts, fixed when the pool closed. The candidates are the fans holding a valid entry other
            than the main winner, each once at their lowest entry number. For mini prize <em>i</em> (in the order below,
            from 0) and round <em>r</em>, the winner is the candidate at SHA-256(<code>blockhash:i:r</code>) mod
            (candidates not yet chosen for it); an 'unlimited' prize goes to every candidate.
          </p>
        </div>
        {drawn ? (
          <Button onClick={run} disabled={running} variant="secondary">
            {running ? "Checking..." : "Check the mini prize winners"}
          </Button>
        ) : null}
      </div>
      <ol className="mt-4 space-y-3 text-sm">
        {data.prizes.map((prize, i) => {
          const quantity = miniPrizeQuantity(prize.quantityText);
          const outcome = outcomes?.[i];
          return (
            <li key={i} className="rounded-lg border border-gray-200 p-3">
              <p className="font-medium text-gray-900">
                {`${i}. ${prize.name}`}
                {prize.amountText ? <span className="text-gray-600">{` (${prize.amountText})`}</span> : null}
                <span className="ml-2 text-xs text-gray-500">
                  {quantity === "unlimited" ? "unlimited" : `${quantity} to draw`}
                </span>
              </p>
              {prize.winners.length === 0 ? (
                <p className="mt-1 text-gray-600">{drawn || !blockHash ? "No winners." : "Not drawn yet."}</p>
              ) : (
                <ul className="mt-1 flex flex-wrap gap-2">
                  {prize.winners.map((w) => (
                    <li key={w.entryNumber}>
                      <Badge tone={w.delivered ? "green" : "gray"}>
                        {`#${w.entryNumber} ${w.name}${w.delivered ? " · delivered" : ""}`}
                      </Badge>
                    </li>
                  ))}
                </ul>
              )}
              {outcome ? (
                <p className={`mt-2 ${outcome.status === "ok" ? "text-green-800" : "text-red-700"}`} role="status">
                  {outcome.status === "ok" ? "✓ " : "✗ "}
                  {outcome.detail}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <details className="mt-3 text-sm text-gray-600">
        <summary className="cursor-pointer">{`Candidates (${data.candidates.length})`}</summary>
        <p className="mt-1 break-all font-mono text-xs">{data.candidates.join(", ") || "none"}</p>
      </details>
    </Card>
  );
}
