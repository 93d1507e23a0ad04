import { redirect } from "react-router";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/lib/context";
import { forgetSessionPushSubscriptions } from "~/lib/push-subscriptions.server";
import { destroySession } from "~/lib/session.server";
import type { Route } from "./+types/signout";

// Signing out is a POST (a link or prefetch must never end a session).
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const db = getDb(getEnv(context));
  // The browser's push subscription stored by this session goes with it (public/page.js unsubscribes the browser).
  await forgetSessionPushSubscriptions(db, request);
  const cookie = await destroySession(db, request);
  return redirect("/", { headers: { "Set-Cookie": cookie } });
}
