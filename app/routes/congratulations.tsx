import { Link } from "~/components/link";
import { CelebrateIcon } from "~/components/icons";
import { SPEND_LIMIT_PROMPT_TEXT } from "~/domain/spend-limits";
import type { Route } from "./+types/congratulations";

export const meta: Route.MetaFunction = () => [{ title: "Welcome to the tribe · Tribe" }];

export default function Congratulations() {
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <div className="rounded-2xl bg-white p-8 shadow-sm ring-1 ring-gray-200">
        <p className="text-5xl text-brand-600" aria-hidden="true">
          <CelebrateIcon />
        </p>
        <h1 className="mt-4 text-2xl font-bold">Congratulations! Your account is ready.</h1>
        <p role="status" className="mt-3 font-medium text-gray-800">
          We have sent a link to your email. Open it to confirm your address: free guesses count and prizes are paid
          only to confirmed accounts.
        </p>
        <p className="mt-3 text-gray-600">
          Your creator profile has been created. Open your shop, run Guess &amp; Win games and grow a prize pool with
          your tribe. Every winner is chosen transparently from a public Bitcoin block hash.
        </p>
        <p className="mt-3 text-sm text-gray-600">
          {SPEND_LIMIT_PROMPT_TEXT} After signing in, set it on{" "}
          <Link to="/spending-limit" className="text-brand-700 underline">
            your spending limit page
          </Link>
          .
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Link
            to="/signin"
            className="rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
          >
            Sign In to Your Dashboard
          </Link>
          <Link to="/" className="rounded-lg border border-gray-300 px-5 py-2.5 text-sm font-semibold hover:bg-gray-50">
            Learn more
          </Link>
        </div>
      </div>
    </div>
  );
}
