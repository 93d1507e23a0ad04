import { data, redirect } from "react-router";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { GameForm } from "~/components/game-form";
import { EmptyState, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getHostGame, isVideoKeyUsed, updateGame } from "~/db/queries/game-host.server";
import { getRevenueRules } from "~/db/queries/platform.server";
import { canEditGame } from "~/domain/catalog";
import { poolShareText } from "~/domain/revenue";
import { deleteVideo } from "~/lib/uploads.server";
import { assertOwner, idParam, notFound, requireUser } from "~/lib/guards.server";
import { getCtx, getEnv } from "~/lib/context";
import type { GameFormValues } from "~/lib/game-form";
import { readGameSubmission } from "~/lib/game-submit.server";
import { flashToastCookie } from "~/lib/toast.server";
import { GAME_MESSAGES } from "~/lib/game-form";
import type { Route } from "./+types/edit-game";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? "Edit Game" : errorTitle(error, "Game not found"));

async function ownedGame(context: Route.LoaderArgs["context"], request: Request, rawId: string | undefined) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const game = await getHostGame(db, idParam(rawId));
  if (!game) notFound();
  assertOwner(game.hostId, user.id);
  return { user, env, db, game };
}

/** The form as the game stands. */
function gameDefaults(game: {
  question: string;
  description: string;
  options: string[];
  correctAnswer: string;
  entryFeeCents: number;
}): GameFormValues {
  return {
    question: game.question,
    description: game.description,
    videoKey: "",
    videoUrl: "",
    options: game.options,
    correctAnswer: game.correctAnswer,
    entryFee: (game.entryFeeCents / 100).toFixed(2),
  };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { game, db } = await ownedGame(context, request, params.id);
  const rules = await getRevenueRules(db);
  const defaults = gameDefaults(game);
  return {
    game: { id: game.id, question: game.question, editable: canEditGame(game.status) },
    defaults,
    currentVideo: game.videoUrl ? { url: game.videoUrl, seconds: game.videoDurationSeconds } : null,
    poolShare: poolShareText(rules, "guess_win_entries"),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { user, env, db, game } = await ownedGame(context, request, params.id);
  const completed = () =>
    data({ errors: { form: GAME_MESSAGES.completedNotEditable }, values: gameDefaults(game) }, { status: 409 });
  if (!canEditGame(game.status)) return completed();
  const submission = await readGameSubmission(request, env, user.id, game);
  if (!submission.ok) return data({ errors: submission.errors, values: submission.values }, { status: 400 });
  const saved = await updateGame(db, game.id, user.id, submission.input);
  if (saved === "not_found") notFound();
  if (saved === "completed") return completed();
  if (saved === "locked") {
    return data({ errors: { correctAnswer: GAME_MESSAGES.answerLocked }, values: submission.values }, { status: 409 });
  }
  // A replaced upload of ours is no longer used by the game.
  if (game.videoKey && game.videoKey !== submission.input.videoKey && !(await isVideoKeyUsed(db, game.videoKey))) {
    const oldKey = game.videoKey;
    getCtx(context).waitUntil(deleteVideo(env, oldKey).catch((err) => console.error("old video delete failed", err)));
  }
  return redirect("/dashboard", {
    headers: { "Set-Cookie": flashToastCookie({ message: "Game updated successfully!", type: "success" }) },
  });
}

export default function EditGame({ loaderData, actionData }: Route.ComponentProps) {
  const { game, defaults, currentVideo } = loaderData;
  if (!game.editable) {
    return (
      <Page title="Edit Game" subtitle={game.question} back={{ to: `/view-game/${game.id}`, label: "Back" }}>
        <EmptyState
          title="This game has ended"
          message={GAME_MESSAGES.completedNotEditable}
          action={{ to: `/view-game/${game.id}`, label: "Back to the game" }}
        />
      </Page>
    );
  }
  return (
    <Page title="Edit Game" subtitle={game.question} back={{ to: `/view-game/${game.id}`, label: "Back" }}>
      <GameForm
        defaults={actionData?.values ?? defaults}
        errors={actionData?.errors}
        currentVideo={currentVideo}
        submitLabel="Save Changes"
        pendingLabel="Saving..."
        cancelTo={`/view-game/${game.id}`}
        poolShare={loaderData.poolShare}
      />
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Game not found",
        message: "This game doesn't exist or has been deleted.",
        action: { to: "/guess-win-management", label: "Back to Guess & Win Management" },
      }}
    />
  );
}
