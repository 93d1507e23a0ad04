import { Link } from "~/components/link";
import { Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { poolShareText } from "~/domain/revenue";
import { getEnv } from "~/lib/context";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/terms";

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () => pageMeta("Terms of Service");

function Clause({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-6 first:mt-0">
      <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
      <div className="mt-2 space-y-2 text-gray-700">{children}</div>
    </section>
  );
}

/** The shares stated below come from the platform's revenue rules in force. */
export async function loader({ context }: Route.LoaderArgs) {
  const rules = await getRevenueRules(getDb(getEnv(context)));
  return { purchaseShare: poolShareText(rules, "shop_sales"), guessShare: poolShareText(rules, "guess_win_entries") };
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  return (
    <Page title="Terms of Service" subtitle="The rules for using Tribe, in plain words." width="narrow">
      <article className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
        <Clause title="What Tribe is">
          <p>
            Tribe is a marketplace where creators ("hosts") sell products, run group buys and run Guess &amp; Win games
            for their community. Part of every sale and every game entry goes into the host's prize pool, and the main
            prize is drawn from a public Bitcoin block hash as described in the{" "}
            <Link to="/official-rules" className="font-medium text-brand-700 hover:underline">
              Official Rules
            </Link>
            .
          </p>
        </Clause>
        <Clause title="Your account">
          <p>
            You must be at least 18 to create an account. Keep your password to yourself; you are responsible for what
            happens under your account. One account per person.
          </p>
        </Clause>
        <Clause title="Buying">
          <p>
            The host who lists a product is the seller and is responsible for describing it honestly, delivering it and
            handling returns. Payments are processed by our card payment provider; we never see or store your card
            number. In a group buy you pay the original price, and if a higher discount tier is reached the difference
            is refunded to your card when the group buy ends.
          </p>
        </Clause>
        <Clause title="Prize pools and games">
          <p>
            {`A stated share of each purchase (${loaderData.purchaseShare}) and of each Guess & Win entry fee (${loaderData.guessShare}) goes to the host's prize pool.`}{" "}
            Entry fees are not refunded because a guess was wrong. There is always a free way to enter, and the winner
            is chosen only as the Official Rules describe.
          </p>
        </Clause>
        <Clause title="Hosts">
          <p>
            Hosts may list only products they have the right to sell, must ship what they sell, and must not run games
            or prize pools where that is against the law. Hosts are paid their share of revenue and of the pool to a
            verified payout method; a platform fee applies as shown in the dashboard.
          </p>
        </Clause>
        <Clause title="What is not allowed">
          <p>
            No fraud, fake accounts, attempts to influence a draw, illegal or dangerous goods, or content that harasses
            others or infringes someone's rights. We may remove content and suspend accounts that break these terms.
          </p>
        </Clause>
        <Clause title="Changes and liability">
          <p>
            We may update these terms; if a change is significant we will tell you in the app before it applies. The
            service is provided as is, to the extent the law allows. Nothing here limits rights you have under consumer
            protection law where you live.
          </p>
        </Clause>
        <p className="mt-6 text-sm text-gray-600">
          See also our{" "}
          <Link to="/privacy" className="font-medium text-brand-700 hover:underline">
            Privacy Policy
          </Link>
          .
        </p>
      </article>
    </Page>
  );
}
