import { Link } from "~/components/link";
import { Page, pageMeta } from "~/components/page";
import { STATIC_FOR_VISITORS } from "~/lib/hydration";
import type { Route } from "./+types/privacy";

export const handle = STATIC_FOR_VISITORS;

export const meta: Route.MetaFunction = () => pageMeta("Privacy Policy");

function Clause({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-6 first:mt-0">
      <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
      <div className="mt-2 space-y-2 text-gray-700">{children}</div>
    </section>
  );
}

export default function Privacy() {
  return (
    <Page title="Privacy Policy" subtitle="What we collect, why, and what you can do about it." width="narrow">
      <article className="rounded-xl border border-gray-200 bg-white p-6 shadow-sm">
        <Clause title="What we collect">
          <p>
            Your account details (e-mail address, a hash of your password, creator name, and anything you add to your
            profile such as a bio, website, avatar or cover image), your orders and shipping address, your guesses,
            tribe memberships and shares, messages you send in chat, and basic security data such as the IP address and
            browser of a sign-in.
          </p>
          <p>
            To enter prize draws lawfully we also keep your date of birth and region (to check age and where draws are
            allowed), your monthly spending limit and the spend that counts toward it, and for each free entry the IP
            address it was sent from (to hold every address to its daily limit). A self-exclusion is kept only as keyed
            hashes of your account, e-mail address, and name with date of birth, so it still applies if you delete your
            account and register again.
          </p>
          <p>
            Card details go straight to our payment provider. We receive only the result of a payment, never your card
            number.
          </p>
        </Clause>
        <Clause title="Why we use it">
          <p>
            To run your account, process and deliver orders, run prize pools and draws, pay hosts and winners, keep the
            service secure and prevent fraud, and send the e-mails you need (such as order updates and password resets)
            or have asked for in your notification settings.
          </p>
        </Clause>
        <Clause title="Who sees it">
          <p>
            A host sees what they need to fulfil your order: your name, e-mail, shipping address and what you bought. A
            public profile shows its name, bio, images and, if you allow it, follower numbers. Prize winners are shown
            on the host's profile and the Winners page by surname and region unless they ask for their name to be
            withheld. We use service providers for hosting, payments and e-mail; we do not sell your data.
          </p>
        </Clause>
        <Clause title="Cookies">
          <p>
            We use a sign-in cookie to keep you signed in and a short-lived cookie to show one-time notices. We do not
            use advertising or tracking cookies.
          </p>
        </Clause>
        <Clause title="Your choices">
          <p>
            You can edit your profile, make it private and change notification settings in{" "}
            <Link to="/settings" className="font-medium text-brand-700 hover:underline">
              Settings
            </Link>
            , and ask for a copy of your data or for your account to be deleted. Order records needed for accounting and
            legal duties are kept for as long as the law requires.
          </p>
        </Clause>
        <Clause title="When you delete your account">
          <p>
            Your profile, images, sign-in sessions and links are erased at once, and your name, e-mail address, phone
            number and shipping and billing addresses are erased from your orders that have closed. An order that is
            still open (not yet delivered, inside its 7-day return window, or with an open return or dispute) keeps them
            for its seller until it closes, and they are erased automatically then; the deletion form lists those
            orders. The amounts paid and refunded stay as money records, without your personal details. Searches of
            orders read these same records, so nothing of yours stays findable after erasure.
          </p>
          <p>
            Your orders belong to your account, not to your e-mail address: if you change your address, or delete your
            account and someone later registers the address, they never see your orders.
          </p>
        </Clause>
        <p className="mt-6 text-sm text-gray-600">
          See also our{" "}
          <Link to="/terms" className="font-medium text-brand-700 hover:underline">
            Terms of Service
          </Link>
          .
        </p>
      </article>
    </Page>
  );
}
