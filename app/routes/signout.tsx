import { redirect } from "react-router";
import { getDb } from "~/db/client.server";
import { getEnv } from "~/lib/context";
import { destroySession } from "~/lib/session.server";
import type { Route } from "./+types/signout";

// Signing out is a POST (a link or prefetch must never end a session).
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const cookie = await destroySession(getDb(getEnv(context)), request);
  return redirect("/", { headers: { "Set-Cookie": cookie } });
}
