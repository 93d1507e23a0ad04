import { Link } from "react-router";
import { Page, pageMeta } from "~/components/page";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/official-rules";

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () => pageMeta("Official Rules", "Eligibility, the free way to enter, how winners are drawn, and the prize.");

function Rule({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-8 first:mt-0">
      <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
      <div className="mt-2 space-y-2 text-gray-700">{children}</div>
    </section>
  );
}

export default function OfficialRules() {
  return (
    <Page title="Official Rules" subtitle="Prize pools and Guess & Win games on Tribe." width="narrow" back={{ to: "/winner-selection", label: "Winner Selection" }}>
      <article className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
        <Rule title="1. Who may take part">
          <p>
            You must be at least 18 years old and able to enter into a binding agreement where you live. Void where
            prohibited or restricted by law: if prize draws like these are not allowed in your country or region, you may
            not take part there.
          </p>
          <p>
            One account per person. Entries made through duplicate or fake accounts are void, and so is any prize won
            with them.
          </p>
        </Rule>

        <Rule title="2. How to enter">
          <p>
            Each purchase from a creator's shop or group buy earns one entry in that creator's current prize pool. In a
            Guess &amp; Win game you may pay an entry fee to guess; only a correct guess earns an entry.
          </p>
          <p>
            <strong>Free way to enter.</strong> No purchase or payment is necessary. A member of a creator's tribe who
            shares one of that creator's games gets one free guess for that game (one per game). A correct free guess
            earns an entry exactly like a paid one, with the same chance of winning.
          </p>
        </Rule>

        <Rule title="3. How the winner is drawn">
          <p>
            A pool closes when it reaches its target or when its end time passes. At closing, the list of entries is
            frozen, its SHA-256 digest is published, and a future Bitcoin block height is announced.
          </p>
          <p>
            When that block has been mined and confirmed, its hash is read as a number, and the winning entry is{" "}
            <code className="rounded bg-gray-100 px-1">BigInt(block hash) mod number of entries</code>, with entry numbers
            counted from 0. Every input is published so anyone can repeat the calculation. If the block cannot be read
            yet, the draw waits; it is never made with a different block.
          </p>
        </Rule>

        <Rule title="4. The prize">
          <p>
            The main prize is 60% of the pool at closing. The creator's share is 25% and the platform's 15%. A creator
            may also offer mini prizes, described on their profile.
          </p>
          <p>
            Winners are contacted through their account. A prize is paid to the winner's verified payout method; taxes
            on a prize are the winner's responsibility.
          </p>
        </Rule>

        <Rule title="5. More">
          <p>
            See{" "}
            <Link to="/winner-selection" className="font-medium text-brand-700 hover:underline">
              how winner selection works
            </Link>
            , our{" "}
            <Link to="/terms" className="font-medium text-brand-700 hover:underline">
              Terms
            </Link>{" "}
            and our{" "}
            <Link to="/privacy" className="font-medium text-brand-700 hover:underline">
              Privacy Policy
            </Link>
            .
          </p>
        </Rule>
      </article>
    </Page>
  );
}
