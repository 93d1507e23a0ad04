import { data, redirect } from "react-router";
import { getDb } from "~/db/client.server";
import { getProfileByIdOrSlug, joinTribe } from "~/db/queries/profiles.server";
import { type TribeJoinOutcome, tribeJoinResult, tribeJoinSchema } from "~/domain/tribe";
import { getOptionalUser, safeRedirectPath } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import { parseSubmission } from "~/lib/validation";
import type { Route } from "./+types/tribe-join";

const STATUS: Record<TribeJoinOutcome, number> = { joined: 200, already: 409, own: 400, "sign-in": 401, failed: 500 };

/**
 * Join Tribe, the one mutation every page posts to (hostId). A fetcher gets the result as data; a form posted
 * without JavaScript names `returnTo` and is sent back there with the outcome in `?tribe=`, which the page shows.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const submission = parseSubmission(tribeJoinSchema, form, ["hostId", "returnTo"]);
  const returnTo = submission.ok ? submission.value.returnTo : undefined;
  const answer = (outcome: TribeJoinOutcome, hostId?: string) => {
    if (returnTo === undefined) return data(tribeJoinResult(outcome, hostId), { status: STATUS[outcome] });
    const back = new URL(safeRedirectPath(returnTo, hostId ? `/profile/${hostId}` : "/"), "https://tribe.invalid");
    back.searchParams.set("tribe", outcome);
    return redirect(back.pathname + back.search, 303);
  };

  const user = await getOptionalUser(context);
  if (!user) return answer("sign-in");
  if (!submission.ok) return data(tribeJoinResult("failed"), { status: 400 });
  const { hostId } = submission.value;
  if (hostId === user.id) return answer("own", hostId);
  const db = getDb(getEnv(context));
  const host = await getProfileByIdOrSlug(db, hostId);
  if (!host || host.userId !== hostId || host.status !== "active")
    return data(tribeJoinResult("failed"), { status: 404 });
  try {
    return answer(await joinTribe(db, user.id, hostId), hostId);
  } catch (error) {
    console.error("tribe: join failed", { hostId, error });
    return answer("failed", hostId);
  }
}
