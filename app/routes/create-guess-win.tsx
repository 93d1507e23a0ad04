import { data, redirect } from "react-router";
import { GameForm } from "~/components/game-form";
import { Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { createGame } from "~/db/queries/game-host.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { poolShareText } from "~/domain/revenue";
import { getOptionalUser } from "~/lib/auth.server";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { emptyGameForm, GAME_MESSAGES } from "~/lib/game-form";
import { readGameSubmission } from "~/lib/game-submit.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/create-guess-win";

export const meta: Route.MetaFunction = () => pageMeta("Create Guess & Win");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(context, request);
  const rules = await getRevenueRules(getDb(getEnv(context)));
  return { defaults: emptyGameForm(), poolShare: poolShareText(rules, "guess_win_entries") };
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!(await getOptionalUser(context)))
    return data({ errors: { form: GAME_MESSAGES.signIn }, values: null }, { status: 401 });
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const submission = await readGameSubmission(request, env, user.id);
  if (!submission.ok) return data({ errors: submission.errors, values: submission.values }, { status: 400 });
  let gameId: string;
  try {
    gameId = await createGame(getDb(env), user.id, submission.input);
  } catch (err) {
    console.error("game insert failed", err);
    return data({ errors: { form: GAME_MESSAGES.createFailed }, values: submission.values }, { status: 500 });
  }
  return redirect(`/guess-win?game=${encodeURIComponent(gameId)}`, {
    headers: { "Set-Cookie": flashToastCookie({ message: "Game created successfully!", type: "success" }) },
  });
}

export default function CreateGuessWin({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Page
      title="Create Guess & Win"
      subtitle={`${loaderData.poolShare} of entry fees go to your prize pool.`}
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <GameForm
        defaults={actionData?.values ?? loaderData.defaults}
        errors={actionData?.errors}
        submitLabel="Create Game"
        pendingLabel="Creating Game..."
        cancelTo="/dashboard"
        poolShare={loaderData.poolShare}
      />
    </Page>
  );
}
