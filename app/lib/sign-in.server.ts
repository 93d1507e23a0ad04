import { data, redirect } from "react-router";
import type { Db } from "~/db/client.server";
import { recordActivity } from "~/db/queries/accounts.server";
import { isAccountSuspended } from "~/db/queries/admin.server";
import { adoptVisitorCurrency } from "~/db/queries/profiles.server";
import { mergeVisitorCart } from "./cart.server";
import { cookieCurrency } from "./currency.server";
import { createSession } from "./session.server";
import { flashToastCookie } from "./toast.server";

export const ACCOUNT_SUSPENDED = "This account has been suspended. Please contact support.";

/**
 * Starts a session for an account that proved who it is (password, demo, or a mailed sign-in link) and goes on to
 * `redirectTo`; a suspended account is refused. The visitor's cart joins the account's, and the currency they chose
 * as a visitor becomes the account's unless its profile remembers one already.
 */
export async function startSignedInSession(db: Db, userId: string, request: Request, redirectTo: string) {
  // A suspended account cannot sign in (the platform owner's status selector on /admin).
  if (await isAccountSuspended(db, userId)) return data({ error: ACCOUNT_SUSPENDED, email: "" }, { status: 403 });
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(db, userId, request));
  // What the visitor put in their cart joins the account's cart.
  const clearCart = await mergeVisitorCart(db, userId, request);
  if (clearCart) headers.append("Set-Cookie", clearCart);
  const currency = cookieCurrency(request);
  if (currency) await adoptVisitorCurrency(db, userId, currency);
  headers.append(
    "Set-Cookie",
    flashToastCookie({ message: "Successfully signed in!", type: "success", durationMs: 2000 }),
  );
  await recordActivity(db, userId, "login");
  return redirect(redirectTo, { headers });
}
