import { Link } from "~/components/link";
import { Page, pageMeta } from "~/components/page";
import { MIN_BLOCK_DIFFICULTY } from "~/domain/draw";
import {
  DRAW_COMMIT_MARGIN,
  MIN_AGREEING_EXPLORERS,
  TIP_ALLOWANCE_BLOCKS,
  TIP_ALLOWANCE_MINUTES_PER_BLOCK,
} from "~/domain/draw-commitment";
import { MIN_ENTRY_AGE } from "~/domain/eligibility";
import { PRIZE_SETTLEMENT_DAYS } from "~/domain/pool";
import { entryCapLimit } from "~/domain/pool-cap";
import { RESPONSIBLE_PLAY_PAGE_PATH } from "~/domain/responsible-play";
import { HOST_POOL_SHARE_PERCENT, MAIN_PRIZE_PERCENT, PLATFORM_POOL_SHARE_PERCENT } from "~/domain/revenue";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import { getEnv } from "~/lib/context";
import { loadRulesFacts } from "~/lib/rules-facts.server";
import {
  ExcludedPlacesList,
  PostalEntry,
  RulesSection,
  rulesLinkClass,
  SupportServices,
} from "~/components/responsible-play";
import type { Route } from "./+types/official-rules";

export const handle = STATIC_FOR_VISITORS;

export async function loader({ context }: Route.LoaderArgs) {
  return loadRulesFacts(getEnv(context));
}

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Official Rules",
    "Eligibility, the free way to enter, sealed guesses, how winners are drawn and redrawn, and the prize.",
  );

export default function OfficialRules({ loaderData }: Route.ComponentProps) {
  const { cap } = loaderData;
  return (
    <Page
      title="Official Rules"
      subtitle="Prize pools and Guess & Win games on Tribe."
      width="narrow"
      back={{ to: "/winner-selection", label: "Winner Selection" }}
    >
      <article className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
        <RulesSection title="1. Who may take part">
          <p>
            You must be at least {MIN_ENTRY_AGE} years old and able to enter into a binding agreement where you live. We
            ask for your date of birth before your first entry and refuse entries from an account under {MIN_ENTRY_AGE};
            a winner also passes an age and identity check before any prize is paid. Void where prohibited or restricted
            by law: if prize draws like these are not allowed in your country or region, you may not take part there.
          </p>
          <ExcludedPlacesList places={loaderData.excludedPlaces} />
          <p>
            Creators (hosts) may not enter their own prize pool: a creator cannot buy their own products, pay for or use
            a free guess on their own games, and money a creator deposits into their pool adds to the prize but never an
            entry. Platform staff may not enter any pool. One account per person. Entries made through duplicate or fake
            accounts are void, and so is any prize won with them.
          </p>
        </RulesSection>

        <RulesSection title="2. How to enter">
          <p>
            Each purchase from a creator's shop or group buy earns one entry in that creator's current prize pool. In a
            Guess &amp; Win game you may pay an entry fee to guess; 100% of the fee goes to the creator's prize pool
            when you pay, and only a correct guess earns an entry.
          </p>
          <p>
            <strong>Free way to enter.</strong> No purchase or payment is necessary. A member of a creator's tribe who
            shares one of that creator's games gets one free guess for that game (one per game and account, for an
            account whose e-mail address is confirmed). A correct free guess earns an entry exactly like a paid one,
            with the same chance of winning.
          </p>
        </RulesSection>

        <RulesSection title="3. Entering for free and by post">
          <p id="free-entry">
            No purchase or payment is necessary to enter any prize pool. Every pool page offers an &quot;Enter for
            free&quot; button, as prominent as the paid ways in, which leads to a short form at{" "}
            <code>/enter-free/&lt;creator&gt;</code>. A confirmed adult account at least a day old may make one free
            entry per pool per day (UTC). A free entry is a row of the same entry list as a paid one and has exactly the
            same chance of winning. entries.txt marks each entry free, postal or paid.
          </p>
          <PostalEntry postalAddress={loaderData.postalAddress} contactEmail={loaderData.contactEmail} />
        </RulesSection>

        <RulesSection title="4. Sealed guesses">
          <p>
            A game runs inside one round of its creator's prize pool: it ends when the creator ends it, at its end date,
            or when the pool closes, whichever comes first. Once anyone has guessed, its answer and options cannot
            change.
          </p>
          <p>
            While a game runs every guess is sealed: nobody, the guesser included, is told whether it is right, and no
            entry appears. When the game ends its answer is published and each correct guess (paid or free) that we
            confirmed before the game ended receives one entry in the pool open at that moment (at the latest, the pool
            whose closing ended it). A guess whose payment we confirm only after its game ended earns no entry and is
            refunded in full automatically.
          </p>
        </RulesSection>

        <RulesSection title="5. Closing and the frozen entry list">
          <p>
            A pool closes when it reaches its target or when its end time passes. Closing is one step: the pool stops
            taking contributions, the creator's running games end, the entries of their correct guesses are added, and
            the entry list is frozen. Entry numbers count from 0 and are never reused.
          </p>
          <p>
            The frozen list is published as <code className="rounded bg-gray-100 px-1">entries.txt</code>: one line per
            entry in entry-number order, giving the entry number, the SHA-256 of the entry's private payment key (you
            can find your own line from your payment id; nobody else learns it) and how it was earned (paid, free,
            postal, guess or bonus), with void entries marked <code className="rounded bg-gray-100 px-1">void</code>.
            The SHA-256 digest of that file is published at closing.
          </p>
        </RulesSection>

        <RulesSection title="6. The block">
          <p>
            At closing the draw is committed to the Bitcoin block {DRAW_COMMIT_MARGIN} past the highest chain tip the
            block explorers report, at least {MIN_AGREEING_EXPLORERS} independent ones (Blockstream's and
            mempool.space's) answering and agreeing on the tip they both have. A tip more than {TIP_ALLOWANCE_BLOCKS}{" "}
            blocks (plus one for every {TIP_ALLOWANCE_MINUTES_PER_BLOCK} minutes since the agreed tip was mined) above
            the agreed tip is ignored, and when the agreed tip was mined more than 2 hours earlier the explorers are
            lagging and we wait. A lagging explorer can therefore never make the committed block one that already
            exists: nobody, us included, can know that block's hash when the list is frozen. The commitment records the
            agreed tip's height, hash and time and the time it was made, in the pool's public draw log, where each
            record carries the SHA-256 of the one before.
          </p>
          <p>
            Once the block is confirmed it is fetched from both explorers, which must agree on it. Its 80-byte header is
            rebuilt from its fields and must hash (double SHA-256) to the block hash, meet its proof-of-work target and
            have a difficulty of at least 10^12 ({MIN_BLOCK_DIFFICULTY.toLocaleString("en-US")}): a block made up at a
            low difficulty is refused. It must also descend from the recorded tip (each block header between them is
            stored and shown, and names the one before), and its time must be later than the commitment minus 2 hours
            (block times may run up to about 2 hours either way of real time, so an earlier block was mined before the
            commitment). If the block cannot be read or checked yet, the draw waits. A block that fails these checks is
            never replaced silently: the pool shows that its draw is delayed and why, and a new commitment to a future
            block is made and recorded in the draw log.
          </p>
        </RulesSection>

        <RulesSection title="7. How the winner is drawn">
          <p>
            The block hash is read as a number and the winner is the valid entry at position{" "}
            <code className="rounded bg-gray-100 px-1">BigInt(block hash) mod (number of valid entries)</code>, counting
            the valid (not void) entries from 0 in entry-number order. Every input is published, and the pool's
            verification page recomputes the digest, the block header and the winner in your browser from the published
            entries.txt.
          </p>
        </RulesSection>

        <RulesSection title="8. Odds and the per-person cap">
          <p>
            Your chance of winning the main prize is the number of valid entries you hold divided by the number of valid
            entries in the pool when it closes. Every pool shows its entry count, and when you are signed in it shows
            &quot;your entries: N of M&quot;.
          </p>
          <p>
            No account may hold more than {cap.percent}% of a pool&apos;s entries, counted when an entry is earned and
            rounded down, or {cap.floor} entries if that is more: in a pool of 1,000 entries that is{" "}
            {entryCapLimit(1000, cap)}. A payment made while you hold the cap still goes into the pool, but earns no
            entry. Entries for correct guesses, free entries and postal entries count toward the cap like any other.
          </p>
        </RulesSection>

        <RulesSection title="9. Refunds, voids and redraws">
          <p>
            While a pool is open, a refund or lost dispute of more than half a payment voids the entry it earned (the
            entry keeps its number and its line, marked void, and can never win), and the pool's share of the refund is
            taken out of the pool. Once a pool has closed its entry list and amount never change: the pool's share of a
            later refund is borne by the creator. If a refund that voided an entry fails after the pool has closed, the
            entry stays out of that pool's draw (its list is final) and the pool's share of the payment goes to the
            creator's open pool.
          </p>
          <p>
            The main prize is paid only after a settlement period of {PRIZE_SETTLEMENT_DAYS} days after the draw. If,
            before then, the winning payment is reversed by the buyer or the card provider (a lost dispute, or a refund
            the buyer obtained through the provider), that draw is voided even when the prize payout is already pending
            (the payout is cancelled) and the prize is drawn again by the same rule, leaving out every voided winner,
            from a fresh commitment past the chain tip at the time of the void. The void and the new commitment are
            recorded, with the reason, in the pool's draw log. A refund the creator or we make of a winning order after
            the draw is borne by the creator and the draw stands. Each draw and redraw is shown on the pool's
            verification page, which checks every commitment, the descent of each block from its recorded tip and its
            time.
          </p>
          <p>
            A pool that closes with no valid entry has no draw: its whole amount is carried over to the creator's next
            pool.
          </p>
        </RulesSection>

        <RulesSection title="10. The prize">
          <p>
            The main prize is {MAIN_PRIZE_PERCENT}% of the pool at closing. The creator's share is{" "}
            {HOST_POOL_SHARE_PERCENT}% and the platform's {PLATFORM_POOL_SHARE_PERCENT}%. A creator may also offer mini
            prizes, described on their profile.
          </p>
          <p>
            A creator&apos;s mini prizes are fixed once anyone has entered the pool: from the first entry on they cannot
            be added, changed or removed.
          </p>
          <p>
            Winners are contacted through their account. A prize is paid to the winner's verified payout method, only to
            an account whose e-mail address is confirmed; taxes on a prize are the winner's responsibility. Mini prizes
            are drawn from the same block hash.
          </p>
          <p>
            To claim the main prize the winner confirms within 30 days of the winner notice, passes the age and identity
            check we record, and has a payout method; payment follows the settlement period. A main prize not claimed in
            time is redrawn once, from a new, recorded commitment.
          </p>
          <p>
            Winners are published on the{" "}
            <Link to="/winners" className={rulesLinkClass}>
              winners page
            </Link>{" "}
            with their surname and county or region, the prize and the date, unless they object when entering or on
            winning; then the page says &quot;Name withheld at the winner&apos;s request&quot; (the record stays
            available to a regulator).
          </p>
        </RulesSection>

        <RulesSection title="11. The public commitment log">
          <p>
            Every commitment, void and redraw is appended to a public log in which each record carries the hash of the
            one before, so no record can be changed or removed without it showing. It is published at{" "}
            <Link to="/transparency" className={rulesLinkClass}>
              /transparency
            </Link>
            ; keep its head, and you can later prove that the log you see extends the one you kept.
          </p>
        </RulesSection>

        <RulesSection title="12. Limits, self-exclusion and help">
          <p>
            You can set a monthly limit on what you spend on entries, lower it at once and raise it after 24 hours;
            credit-card payments that earn entries are capped at £250 a month. You can exclude yourself for 6 months, 1
            year or 5 years; a self-exclusion cannot be undone early and survives deleting your account. Set these in{" "}
            <Link to="/settings/responsible-play" className={rulesLinkClass}>
              Settings &gt; Responsible play
            </Link>
            , and read{" "}
            <Link to={RESPONSIBLE_PLAY_PAGE_PATH} className={rulesLinkClass}>
              Responsible play
            </Link>{" "}
            for how each works.
          </p>
          <SupportServices />
        </RulesSection>

        <RulesSection title="13. More">
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
        </RulesSection>
      </article>
    </Page>
  );
}
