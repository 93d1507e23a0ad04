// Reads and checks a posted game form on the server: the shared rules (app/lib/game-form.ts) plus the video, which
// must be the host's own upload in R2 whose duration was verified (≥ 30 s) when the upload completed.
import { isVideoLongEnough } from "~/domain/catalog";
import type { GameInput } from "~/db/queries/game-host.server";
import { GAME_MESSAGES, type GameFormValues, readGameForm, validateGameForm, videoUrlKey } from "~/lib/game-form";
import { isOwnVideoKey, verifiedVideoDuration } from "~/lib/uploads.server";

export type GameSubmission =
  | { ok: true; input: GameInput; values: GameFormValues }
  | { ok: false; errors: Record<string, string>; values: GameFormValues };

type CurrentVideo = { videoUrl: string | null; videoKey: string | null; videoDurationSeconds: number | null };

/**
 * `current` is the game's video when editing (a new one is optional then). A video URL is accepted only when it
 * is our own /media/guess-win-videos/{userId}/... object (`videoUrlKey`): the Worker cannot verify the length of a
 * video elsewhere.
 */
export async function readGameSubmission(
  request: Request,
  env: Pick<Env, "MEDIA">,
  userId: string,
  current?: CurrentVideo,
): Promise<GameSubmission> {
  const values = readGameForm(await request.formData());
  const given = values.videoKey || values.videoUrl;
  const keepCurrent = !given && !!current?.videoUrl;
  const checked = validateGameForm(values, !!given || keepCurrent);
  if (!checked.ok) return { ok: false, errors: checked.errors, values };

  let video: { videoUrl: string; videoKey: string | null; seconds: number };
  if (keepCurrent) {
    video = { videoUrl: current!.videoUrl!, videoKey: current!.videoKey, seconds: current!.videoDurationSeconds ?? 0 };
  } else {
    const refuse = (message: string): GameSubmission => ({ ok: false, errors: { video: message }, values });
    const origin = new URL(request.url).origin;
    // A fresh upload's key (the form sends its URL empty), or the key behind a pasted video URL, told apart so a URL
    // that does not load says why.
    const fromUrl = values.videoUrl ? videoUrlKey(values.videoUrl, origin) : null;
    let key: string;
    if (values.videoKey) {
      if (!isOwnVideoKey(values.videoKey, userId)) return refuse(GAME_MESSAGES.video);
      if (fromUrl && (!fromUrl.ok || fromUrl.key !== values.videoKey)) return refuse(GAME_MESSAGES.video);
      key = values.videoKey;
    } else {
      if (!fromUrl) return refuse(GAME_MESSAGES.video);
      if (!fromUrl.ok) return refuse(fromUrl.message);
      if (!isOwnVideoKey(fromUrl.key, userId)) return refuse(GAME_MESSAGES.videoUrlElsewhere);
      key = fromUrl.key;
    }
    const seconds = await verifiedVideoDuration(env, userId, key);
    if (seconds === null) return refuse(values.videoKey ? GAME_MESSAGES.video : GAME_MESSAGES.videoUrlNotLoading);
    if (!isVideoLongEnough(seconds)) return refuse(GAME_MESSAGES.videoTooShort);
    video = { videoUrl: `/media/${key}`, videoKey: key, seconds };
  }
  return {
    ok: true,
    values,
    input: { ...checked.game, videoUrl: video.videoUrl, videoKey: video.videoKey, videoDurationSeconds: video.seconds },
  };
}
