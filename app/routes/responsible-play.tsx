// /responsible-play: the public page that says how to enter without paying, who may enter, the odds and the cap,
// claiming, the limits a fan sets, self-exclusion, the public log and where to find help (issue 29 item 8,
// docs/product.md#responsible-play). The fan's own settings are at /settings/responsible-play.
import { Link } from "~/components/link";
import { Page, pageMeta } from "~/components/page";
import {
  ExcludedPlacesList,
  PostalEntry,
  RulesSection,
  rulesLinkClass,
  SupportServices,
} from "~/components/responsible-play";
import { MIN_ENTRY_AGE, RESPONSIBLE_PLAY_PATH } from "~/domain/eligibility";
import { entryCapLimit } from "~/domain/pool-cap";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import { loadRulesFacts } from "~/lib/rules-facts.server";
import type { Route } from "./+types/responsible-play";

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Responsible play",
    "How to enter for free, who may enter, the odds, the per-person cap, spend limits, self-exclusion and where to find help.",
  );

export async function loader({ context }: Route.LoaderArgs) {
  return loadRulesFacts(getEnv(context));
}

export default function ResponsiblePlay({ loaderData }: Route.ComponentProps) {
  const { cap } = loaderData;
  return (
    <Page
      title="Responsible play"
      subtitle="Prize draws should stay fun. Here is how ours work and how to keep them in check."
      width="narrow"
      back={{ to: "/official-rules", label: "Official Rules" }}
    >
      <article className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
        <RulesSection title="You never need to pay to enter">
          <p>
            Every pool can be entered for free, with the same chance as a paid entry. On any pool page, press the
            &quot;Enter for free&quot; button and fill in the short form: a confirmed adult account at least a day old
            may make one free entry per pool per day.
          </p>
          <PostalEntry postalAddress={loaderData.postalAddress} contactEmail={loaderData.contactEmail} />
        </RulesSection>

        <RulesSection title="Who may enter">
          <p>
            You must be {MIN_ENTRY_AGE} or older. We ask for your date of birth before your first entry, and a winner
            passes an age and identity check before any prize is paid. Creators cannot enter their own pool and platform
            staff cannot enter any pool.
          </p>
          <ExcludedPlacesList places={loaderData.excludedPlaces} />
        </RulesSection>

        <RulesSection title="Your odds">
          <p>
            Each pool shows how many entries it holds, and when you are signed in, &quot;your entries: N of M&quot;:
            your chance of winning the main prize is N divided by M when the pool closes.
          </p>
        </RulesSection>

        <RulesSection title="A cap on entries per person">
          <p>
            No account may hold more than {cap.percent}% of a pool&apos;s entries, counted when an entry is earned and
            rounded down, or {cap.floor} entries if that is more: in a pool of 1,000 entries that is{" "}
            {entryCapLimit(1000, cap)}. Past the cap a purchase still goes through and adds to the pool, but earns no
            entry, and checkout tells you so before you pay.
          </p>
        </RulesSection>

        <RulesSection title="If you win">
          <p>
            Confirm your prize within 30 days of the winner notice, pass the age and identity check, and add a payout
            method; the main prize is paid after the settlement period. A main prize nobody claims in time is redrawn
            once, from a new, recorded commitment.
          </p>
          <p>
            Winners are listed on the{" "}
            <Link to="/winners" className={rulesLinkClass}>
              winners page
            </Link>{" "}
            with their surname and region unless they object, when entering or on winning; then it says &quot;Name
            withheld at the winner&apos;s request&quot;.
          </p>
        </RulesSection>

        <RulesSection title="Limits you set">
          <p>
            You can set a monthly limit on what you spend on entries (paid guesses and purchases that earn entries),
            including zero. Lowering it takes effect at once; raising it takes effect after 24 hours, so a limit cannot
            be talked away in the moment. Past your limit a guess is refused, and a purchase still goes through but
            earns no entry.
          </p>
          <p>Credit-card payments that earn entries are capped at £250 a month.</p>
        </RulesSection>

        <RulesSection title="Taking a break: self-exclusion">
          <p>
            You can exclude yourself from every prize draw for 6 months, 1 year or 5 years. It blocks paid guesses, free
            entries and entries from purchases, it cannot be undone early, and it survives deleting your account.
          </p>
          <p>
            Set a spend limit or exclude yourself in{" "}
            <Link to={RESPONSIBLE_PLAY_PATH} className={rulesLinkClass}>
              Settings &gt; Responsible play
            </Link>
            .
          </p>
        </RulesSection>

        <RulesSection title="Draws you can check">
          <p>
            Every commitment, void and redraw is recorded in a public log that nobody can rewrite without it showing:
            see{" "}
            <Link to="/transparency" className={rulesLinkClass}>
              the public commitment log
            </Link>
            . The{" "}
            <Link to="/official-rules" className={rulesLinkClass}>
              official rules
            </Link>{" "}
            say exactly how winners are drawn.
          </p>
        </RulesSection>

        <RulesSection title="Where to find help">
          <SupportServices />
        </RulesSection>
      </article>
    </Page>
  );
}
