import { useEffect } from "react";
import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, SubmitButton } from "~/components/form";
import { useToast } from "~/components/toaster";
import { getDb } from "~/db/client.server";
import { findUserByEmail } from "~/db/queries/accounts.server";
import { sendSignInLinkMail } from "~/lib/account-mail.server";
import { getOptionalUser, safeRedirectPath } from "~/lib/auth.server";
import { isDemoMode } from "~/lib/config.server";
import { getEnv } from "~/lib/context";
import { DEMO_FAN_EMAIL, DEMO_HOST_EMAIL } from "~/lib/demo";
import { verifyPassword } from "~/lib/password.server";
import { startSignedInSession } from "~/lib/sign-in.server";
import { mayMailAccount, signInKeys, signInSucceeded, takeSignInAttempt } from "~/lib/throttle.server";
import { useHydrated } from "~/lib/hydration";
import type { Route } from "./+types/signin";

export const SIGNIN_FAILED = "Failed to sign in. Please check your email and password.";
/** How long a sign-in error's toast shows. */
const SIGNIN_ERROR_TOAST_MS = 3000;
const FILL_ALL = "Please fill in all fields!";
/** Past the account's ceiling of failures: the same answer whether or not the address has an account. */
export const SIGNIN_LINK_SENT =
  "There have been too many failed attempts to sign in to this account. For your security, we have e-mailed its owner a link to sign in.";

// Compared against when the e-mail is unknown, so both paths cost one scrypt derivation.
const DUMMY_HASH = "scrypt$16384$8$5$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export const meta: Route.MetaFunction = () => [{ title: "Sign In · Tribe" }];

/** A refused attempt says when to come back (Retry-After), on the page's own response too. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  if (await getOptionalUser(context)) throw redirect(redirectTo);
  return { demoMode: isDemoMode(getEnv(context)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const env = getEnv(context);
  const db = getDb(env);
  const form = await request.formData();
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const intent = form.get("intent");

  if (intent === "demo-host" || intent === "demo-fan") {
    if (!isDemoMode(env)) return data({ error: "Demo mode is not available.", email: "" }, { status: 403 });
    const demo = await findUserByEmail(db, intent === "demo-host" ? DEMO_HOST_EMAIL : DEMO_FAN_EMAIL);
    if (!demo) return data({ error: "The demo accounts have not been seeded yet.", email: "" }, { status: 404 });
    return startSignedInSession(db, demo.id, request, redirectTo);
  }

  const email = String(form.get("email") ?? "")
    .trim()
    .toLowerCase();
  const password = String(form.get("password") ?? "");
  if (!email || !password) return data({ error: FILL_ALL, email }, { status: 400 });

  const now = new Date();
  const keys = signInKeys(request, email);
  // Counted and checked before the password is looked at, so a burst gets no extra tries (decision 410): this
  // address waits longer after each failure for this account (and for all accounts); the owner elsewhere never does.
  const gate = await takeSignInAttempt(db, keys, now);
  if (!gate.ok && gate.reason === "wait") {
    const seconds = Math.ceil(gate.waitMs / 1000);
    const wait = seconds < 120 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.ceil(seconds / 60)} minutes`;
    return data(
      { error: `Too many failed sign-in attempts. Please try again in ${wait}.`, email },
      { status: 429, headers: { "Retry-After": String(seconds) } },
    );
  }

  const user = await findUserByEmail(db, email);
  if (!gate.ok) {
    // Past the account's ceiling a password alone does not sign in: the owner gets a one-time link (at most one
    // mail per window), and the answer is the same for any address.
    if (user && (await mayMailAccount(db, "sign_in_link", email, now))) {
      await sendSignInLinkMail(env, db, { userId: user.id, email: user.email }, new URL(request.url).origin);
    }
    return data({ error: SIGNIN_LINK_SENT, email }, { status: 429 });
  }
  const valid = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !valid) {
    return data({ error: SIGNIN_FAILED, email }, { status: 401 });
  }
  await signInSucceeded(db, keys);
  return startSignedInSession(db, user.id, request, redirectTo);
}

export default function Signin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // A refused sign-in is told in a 3 s toast; until the page runs, the form shows it instead.
  const hydrated = useHydrated();
  const toast = useToast();
  useEffect(() => {
    if (actionData?.error) toast({ message: actionData.error, type: "error", durationMs: SIGNIN_ERROR_TOAST_MS });
  }, [actionData, toast]);
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-gray-200 sm:p-8">
        <h1 className="text-2xl font-bold">Welcome Back!</h1>
        <p className="mt-1 text-sm text-gray-600">Sign in to your shop, games and prize pool.</p>
        {loaderData.demoMode ? (
          <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-semibold">Demo Mode Active</p>
            <p className="mt-1">Try the demo with a seeded account, no password needed.</p>
            <Form method="post" className="mt-3 flex flex-wrap gap-2">
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button
                name="intent"
                value="demo-host"
                className="rounded-lg bg-amber-700 px-3 py-1.5 font-semibold text-white hover:bg-amber-800"
              >
                Try the demo as a host
              </button>
              <button
                name="intent"
                value="demo-fan"
                className="rounded-lg border border-amber-600 px-3 py-1.5 font-semibold text-amber-800 hover:bg-amber-100"
              >
                Try the demo as a fan
              </button>
            </Form>
          </div>
        ) : null}
        <Form method="post" className="mt-6 space-y-4">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {hydrated ? null : <FormError>{actionData?.error}</FormError>}
          <Field
            label="Email"
            name="email"
            type="email"
            required
            autoComplete="email"
            defaultValue={actionData?.email}
          />
          <Field label="Password" name="password" type="password" required autoComplete="current-password" />
          <div className="flex justify-end text-sm">
            <Link to="/forgot-password" className="text-brand-700 underline">
              Forgot password?
            </Link>
          </div>
          <SubmitButton pending={busy}>{busy ? "Signing In..." : "Sign In"}</SubmitButton>
        </Form>
        <p className="mt-6 text-center text-sm text-gray-600">
          New here?{" "}
          <Link to="/signup" className="font-medium text-brand-700 underline">
            Create an account
          </Link>{" "}
          ·{" "}
          <Link to="/" className="text-brand-700 underline">
            Back to home
          </Link>
        </p>
      </div>
    </div>
  );
}
