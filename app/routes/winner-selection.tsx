import { Link } from "react-router";
import { Card, LinkButton, Page, pageMeta } from "~/components/page";
import type { Route } from "./+types/winner-selection";

export const meta: Route.MetaFunction = () =>
  pageMeta("Winner Selection", "How every main-prize winner is drawn from a public Bitcoin block hash, and how to check it yourself.");

const steps = [
  {
    title: "1. Everyone gets an entry number",
    text: "Each purchase, and each correct Guess & Win guess, earns one entry in the creator's current prize pool. Entry numbers start at 0 and go up by one, in the order entries are made.",
  },
  {
    title: "2. The entry list is frozen and published",
    text: "When the pool reaches its target or its timer runs out, it closes. The full entry list is frozen and its SHA-256 fingerprint is published together with the height of a Bitcoin block that has not been mined yet.",
  },
  {
    title: "3. Bitcoin mines the block",
    text: "Nobody, including us and the creator, can know or influence that block's hash in advance. Once the block is mined and has enough confirmations, its hash is read from two independent block explorers and checked.",
  },
  {
    title: "4. The hash picks the winner",
    text: "The block hash is read as one large number and divided by the number of entries. The remainder is the winning entry number: winner = hash mod entries. The main prize is 60% of the pool.",
  },
];

export default function WinnerSelection() {
  return (
    <Page title="Winner Selection" subtitle="The most transparent prize pool: a public Bitcoin block decides, and anyone can check the result.">
      <ol className="grid gap-4 md:grid-cols-2">
        {steps.map((step) => (
          <li key={step.title}>
            <Card className="h-full">
              <h2 className="font-semibold text-gray-900">{step.title}</h2>
              <p className="mt-2 text-sm text-gray-700">{step.text}</p>
            </Card>
          </li>
        ))}
      </ol>

      <Card className="mt-6">
        <h2 className="font-semibold text-gray-900">In plain words</h2>
        <p className="mt-2 text-sm text-gray-700">
          Think of it as a lottery where the numbers are drawn by the Bitcoin network instead of by a person. Because the
          entry list is locked before the block exists, nobody can add, remove or reorder entries once they could know
          the result. Because the block hash is public, you can repeat the calculation yourself.
        </p>
        <h3 className="mt-4 text-sm font-semibold text-gray-900">Check a draw yourself</h3>
        <ol className="mt-2 list-decimal space-y-1 pl-5 text-sm text-gray-700">
          <li>Look up the published block height on a public block explorer and copy the block hash.</li>
          <li>Read the hash as a hexadecimal number (for example with BigInt("0x" + hash) in a browser console).</li>
          <li>Take the remainder after dividing by the number of entries. That is the winning entry number.</li>
        </ol>
        <p className="mt-3 text-sm text-gray-700">
          Public block explorers:{" "}
          <a href="https://blockstream.info/" target="_blank" rel="noreferrer" className="font-medium text-brand-700 hover:underline">
            blockstream.info
          </a>{" "}
          and{" "}
          <a href="https://mempool.space/" target="_blank" rel="noreferrer" className="font-medium text-brand-700 hover:underline">
            mempool.space
          </a>
          .
        </p>
      </Card>

      <p className="mt-6 text-sm text-gray-600">
        The full rules, including the free way to enter, are in the{" "}
        <Link to="/official-rules" className="font-medium text-brand-700 hover:underline">
          Official Rules
        </Link>
        .
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <LinkButton to="/guess-win">Play Guess &amp; Win</LinkButton>
        <LinkButton to="/" variant="secondary">
          Back to Home
        </LinkButton>
      </div>
    </Page>
  );
}
