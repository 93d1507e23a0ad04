import { useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { FormError } from "~/components/form";
import { Badge, Card, LinkButton } from "~/components/page";
import {
  formatDuration,
  formatMegabytes,
  GAME_ENTRY_FEE_MAX_CENTS,
  GAME_ENTRY_FEE_MIN_CENTS,
  GAME_OPTIONS_MAX,
  GAME_OPTIONS_MIN,
  isVideoLongEnough,
  VIDEO_MAX_BYTES,
  VIDEO_MIN_SECONDS,
  videoTooShortMessage,
} from "~/domain/catalog";
import { firstGameError, GAME_MESSAGES, type GameFormValues, videoUrlKey } from "~/lib/game-form";

const VIDEO_TYPE_MESSAGE = "Please select a valid video file";
const VIDEO_SIZE_MESSAGE = "Video file size must be less than 500MB";
const VIDEO_UNREADABLE_MESSAGE = "Unable to process video file. Please try a different format.";
const CHUNK_BYTES = 10 * 1_048_576;

const inputClass =
  "mt-1 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

/** The duration the browser reads from a video's metadata (a picked file or a URL), before anything is saved. */
function browserDuration(source: File | string): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = typeof source === "string" ? source : URL.createObjectURL(source);
    const release = () => {
      if (typeof source !== "string") URL.revokeObjectURL(url);
    };
    const video = document.createElement("video");
    video.preload = "metadata";
    video.onloadedmetadata = () => {
      release();
      resolve(video.duration);
    };
    video.onerror = () => {
      release();
      reject(new Error(VIDEO_UNREADABLE_MESSAGE));
    };
    video.src = url;
  });
}

/** The too-short message with how much more is needed. */
function tooShortAdvice(seconds: number): string {
  const missing = Math.max(1, Math.ceil(VIDEO_MIN_SECONDS - seconds));
  return `${videoTooShortMessage(seconds)} Please use a video of ${VIDEO_MIN_SECONDS}+ seconds (${missing} more seconds needed).`;
}

async function errorOf(res: Response, fallback: string): Promise<string> {
  try {
    const body = (await res.json()) as { error?: string };
    return body.error || fallback;
  } catch {
    return fallback;
  }
}

/** Multipart upload through /api/uploads/video; reports progress per chunk; answers the stored video's URL/key. */
async function uploadVideo(file: File, onProgress: (fraction: number) => void) {
  const start = await fetch("/api/uploads/video", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ fileName: file.name, size: file.size, contentType: file.type }),
  });
  if (!start.ok) throw new Error(await errorOf(start, GAME_MESSAGES.uploadFailed));
  const { uploadId, key, partSize } = (await start.json()) as { uploadId: string; key: string; partSize?: number };
  const size = partSize || CHUNK_BYTES;
  const q = `key=${encodeURIComponent(key)}`;
  const parts: { partNumber: number; etag: string }[] = [];
  try {
    for (let offset = 0, n = 1; offset < file.size; offset += size, n++) {
      const res = await fetch(`/api/uploads/video/${encodeURIComponent(uploadId)}/parts/${n}?${q}`, {
        method: "PUT",
        body: file.slice(offset, offset + size),
      });
      if (!res.ok) throw new Error(await errorOf(res, GAME_MESSAGES.uploadFailed));
      parts.push((await res.json()) as { partNumber: number; etag: string });
      onProgress(Math.min(1, (offset + size) / file.size));
    }
  } catch (err) {
    void fetch(`/api/uploads/video/${encodeURIComponent(uploadId)}?${q}`, { method: "DELETE" }).catch(() => undefined);
    throw err;
  }
  const done = await fetch(`/api/uploads/video/${encodeURIComponent(uploadId)}/complete?${q}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ key, parts }),
  });
  if (!done.ok) throw new Error(await errorOf(done, GAME_MESSAGES.uploadFailed));
  return (await done.json()) as { key: string; url: string; durationSeconds: number };
}

type Props = {
  defaults: GameFormValues;
  errors?: Record<string, string> | null;
  /** The game's current video when editing (then a new one is optional). */
  currentVideo?: { url: string; seconds: number | null } | null;
  submitLabel: string;
  pendingLabel: string;
  cancelTo: string;
  /** The pool's share of entry fees under the rules in force ("100%"). */
  poolShare: string;
};

export function GameForm({ defaults, errors, currentVideo, submitLabel, pendingLabel, cancelTo, poolShare }: Props) {
  const busy = useNavigation().state !== "idle";
  const [question, setQuestion] = useState(defaults.question);
  const [description, setDescription] = useState(defaults.description);
  const [options, setOptions] = useState<string[]>(
    defaults.options.length >= GAME_OPTIONS_MIN ? defaults.options : ["", ""],
  );
  const [correct, setCorrect] = useState(defaults.correctAnswer);
  const [fee, setFee] = useState(defaults.entryFee);
  const [videoKey, setVideoKey] = useState(defaults.videoKey);
  const [videoUrl, setVideoUrl] = useState(defaults.videoUrl);
  const [videoSeconds, setVideoSeconds] = useState<number | null>(currentVideo?.seconds ?? null);
  const [checking, setChecking] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [videoError, setVideoError] = useState<string | null>(null);
  /** The URL whose length the browser checked and found long enough. */
  const [checkedUrl, setCheckedUrl] = useState<string | null>(defaults.videoUrl || null);
  /** The pasted URL the preview plays: the last one checked (not every keystroke). */
  const [triedUrl, setTriedUrl] = useState<string | null>(defaults.videoUrl || null);
  const fileInput = useRef<HTMLInputElement>(null);

  const urlOk = !!videoUrl.trim() && checkedUrl === videoUrl.trim();
  const hasVideo = !!videoKey || urlOk || (!videoUrl.trim() && !!currentVideo);
  const uploading = progress !== null;
  const formError = errors ? firstGameError(errors) : undefined;
  const previewUrl = videoKey ? `/media/${videoKey}` : (triedUrl ?? "") || currentVideo?.url || "";
  const videoMessage = videoError ?? errors?.video;

  async function onFile(file: File | undefined) {
    setVideoError(null);
    setVideoKey("");
    if (!file) return;
    if (!file.type.startsWith("video/")) return setVideoError(VIDEO_TYPE_MESSAGE);
    if (file.size > VIDEO_MAX_BYTES) return setVideoError(VIDEO_SIZE_MESSAGE);
    setChecking(true);
    let seconds: number;
    try {
      seconds = await browserDuration(file);
    } catch {
      setChecking(false);
      return setVideoError(VIDEO_UNREADABLE_MESSAGE);
    }
    setChecking(false);
    if (!isVideoLongEnough(seconds)) return setVideoError(tooShortAdvice(seconds));
    setProgress(0);
    try {
      const stored = await uploadVideo(file, setProgress);
      setVideoKey(stored.key);
      setVideoUrl("");
      setVideoSeconds(stored.durationSeconds);
    } catch (err) {
      setVideoError(err instanceof Error && err.message ? err.message : GAME_MESSAGES.uploadFailed);
      if (fileInput.current) fileInput.current.value = "";
    } finally {
      setProgress(null);
    }
  }

  async function checkUrl() {
    const url = videoUrl.trim();
    setVideoError(null);
    if (!url) return setTriedUrl(null);
    if (url === checkedUrl) return;
    // What the server refuses without loading anything (not a link, not one of ours) is said at once.
    const where = videoUrlKey(url, window.location.origin);
    if (!where.ok) {
      setCheckedUrl(null);
      setTriedUrl(null);
      return setVideoError(where.message);
    }
    setTriedUrl(url);
    setChecking(true);
    try {
      const seconds = await browserDuration(url);
      if (!isVideoLongEnough(seconds)) {
        setVideoError(tooShortAdvice(seconds));
        setCheckedUrl(null);
      } else {
        setCheckedUrl(url);
        setVideoSeconds(seconds);
      }
    } catch {
      // The video element's error event: nothing playable at that link.
      setVideoError(GAME_MESSAGES.videoUrlNotLoading);
      setCheckedUrl(null);
    } finally {
      setChecking(false);
    }
  }

  function setOption(i: number, value: string) {
    const next = [...options];
    if (correct && correct === options[i]) setCorrect(value.trim() ? value : "");
    next[i] = value;
    setOptions(next);
  }

  function removeOption(i: number) {
    if (options.length <= GAME_OPTIONS_MIN) return;
    if (correct && correct === options[i]) setCorrect("");
    setOptions(options.filter((_, j) => j !== i));
  }

  const submitText = busy
    ? pendingLabel
    : checking
      ? "Checking Video..."
      : uploading
        ? "Uploading Video..."
        : !hasVideo
          ? "Video Required (30+ sec)"
          : submitLabel;
  const filled = options.filter((o) => o.trim());

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Form method="post" id="game-form" className="space-y-6 lg:col-span-2" noValidate>
        <FormError>{formError}</FormError>
        <Card>
          <h2 className="font-semibold text-gray-900">Question</h2>
          <label htmlFor="question" className="mt-3 block text-sm font-medium text-gray-700">
            Question
          </label>
          <input
            id="question"
            name="question"
            className={inputClass}
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            maxLength={300}
          />
          {errors?.question ? <p className="mt-1 text-sm text-red-600">{errors.question}</p> : null}
          <label htmlFor="description" className="mt-3 block text-sm font-medium text-gray-700">
            Description
          </label>
          <textarea
            id="description"
            name="description"
            rows={3}
            className={inputClass}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={5000}
          />
          {errors?.description ? <p className="mt-1 text-sm text-red-600">{errors.description}</p> : null}
        </Card>

        <Card>
          <h2 className="font-semibold text-gray-900">Video</h2>
          <p className="mt-1 text-sm text-gray-600">
            At least {VIDEO_MIN_SECONDS} seconds; MP4 or WebM up to {formatMegabytes(VIDEO_MAX_BYTES)} MB.
            {currentVideo ? " Leave empty to keep the current video." : ""}
          </p>
          <input
            ref={fileInput}
            type="file"
            accept="video/mp4,video/webm"
            aria-label="Upload video"
            className="mt-3 block w-full text-sm"
            disabled={checking || uploading}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          {progress !== null ? (
            <div className="mt-2" aria-live="polite">
              <div className="h-2 w-full overflow-hidden rounded bg-gray-200">
                <div className="h-2 bg-brand-600" style={{ width: `${Math.round(progress * 100)}%` }} />
              </div>
              <p className="mt-1 text-xs text-gray-600">Uploading… {Math.round(progress * 100)}%</p>
            </div>
          ) : null}
          {videoKey && videoSeconds !== null ? (
            <p className="mt-2 text-sm text-green-700">Video uploaded ({formatDuration(videoSeconds)}).</p>
          ) : null}
          <label htmlFor="videoUrl" className="mt-3 block text-sm font-medium text-gray-700">
            Or video URL (a video uploaded here before)
          </label>
          <input
            id="videoUrl"
            name="videoUrl"
            type="url"
            className={inputClass}
            value={videoUrl}
            disabled={!!videoKey}
            onChange={(e) => setVideoUrl(e.target.value)}
            onBlur={() => void checkUrl()}
            placeholder="https://…/media/guess-win-videos/…"
            aria-invalid={videoMessage ? true : undefined}
            aria-describedby={videoMessage ? "video-error" : undefined}
          />
          <input type="hidden" name="videoKey" value={videoKey} />
          {videoMessage ? (
            <p id="video-error" role="alert" className="mt-1 text-sm text-red-600">
              {videoMessage}
            </p>
          ) : null}
        </Card>

        <Card>
          <h2 className="font-semibold text-gray-900">Answer options</h2>
          <ul className="mt-3 space-y-2">
            {options.map((option, i) => (
              <li key={i} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="correctAnswer"
                  value={option.trim()}
                  aria-label={`Option ${i + 1} is correct`}
                  disabled={!option.trim()}
                  checked={!!option.trim() && correct.trim() === option.trim()}
                  onChange={() => setCorrect(option.trim())}
                />
                <input
                  name="option"
                  aria-label={`Option ${i + 1}`}
                  className={`${inputClass} mt-0`}
                  value={option}
                  maxLength={200}
                  onChange={(e) => setOption(i, e.target.value)}
                  placeholder={`Option ${i + 1}`}
                />
                {options.length > GAME_OPTIONS_MIN ? (
                  <button
                    type="button"
                    className="text-sm font-semibold text-red-600 hover:underline"
                    onClick={() => removeOption(i)}
                  >
                    Remove
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          {options.length < GAME_OPTIONS_MAX ? (
            <button
              type="button"
              className="mt-3 text-sm font-semibold text-brand-700 hover:underline"
              onClick={() => setOptions([...options, ""])}
            >
              Add Option
            </button>
          ) : null}
          {errors?.options ? <p className="mt-1 text-sm text-red-600">{errors.options}</p> : null}
          {errors?.correctAnswer ? (
            <p className="mt-1 text-sm text-red-600">{errors.correctAnswer}</p>
          ) : !correct.trim() ? (
            <p className="mt-2 text-sm text-amber-700">{GAME_MESSAGES.correctMissing}</p>
          ) : null}
        </Card>

        <Card>
          <h2 className="font-semibold text-gray-900">Game settings</h2>
          <label htmlFor="entryFee" className="mt-3 block text-sm font-medium text-gray-700">
            Minimum Entry Fee (USD)
          </label>
          <input
            id="entryFee"
            name="entryFee"
            type="number"
            min={GAME_ENTRY_FEE_MIN_CENTS / 100}
            max={GAME_ENTRY_FEE_MAX_CENTS / 100}
            step="0.01"
            required
            className={inputClass}
            value={fee}
            onChange={(e) => setFee(e.target.value)}
          />
          {errors?.entryFee ? <p className="mt-1 text-sm text-red-600">{errors.entryFee}</p> : null}
          <p className="mt-2 text-sm text-gray-600">{poolShare} of entry fees go to your prize pool.</p>
        </Card>

        <div className="flex gap-3">
          <LinkButton to={cancelTo} variant="secondary">
            Cancel
          </LinkButton>
          <button
            type="submit"
            disabled={busy || checking || uploading || !hasVideo}
            className="flex-1 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {submitText}
          </button>
        </div>
      </Form>

      <aside className="space-y-3" aria-label="Preview">
        <h2 className="text-sm font-semibold tracking-wide text-gray-500 uppercase">Live preview</h2>
        <Card>
          {previewUrl ? (
            <video
              src={previewUrl}
              controls
              preload="metadata"
              className="aspect-video w-full rounded-lg bg-black"
              onError={() => {
                // A pasted URL that stops loading in the preview is said in the video field's error area.
                if (!videoKey && triedUrl && previewUrl === triedUrl) {
                  setVideoError(GAME_MESSAGES.videoUrlNotLoading);
                  setCheckedUrl(null);
                }
              }}
            />
          ) : (
            <div className="aspect-video w-full rounded-lg bg-gray-100" />
          )}
          <p className="mt-3 font-semibold text-gray-900">{question.trim() || "Your question"}</p>
          {description.trim() ? <p className="mt-1 text-sm whitespace-pre-line text-gray-600">{description}</p> : null}
          <ul className="mt-3 space-y-1">
            {filled.map((o, i) => (
              <li
                key={i}
                className="flex items-center justify-between rounded border border-gray-200 px-2 py-1 text-sm"
              >
                {o}
                {correct.trim() === o.trim() ? <Badge tone="green">Correct</Badge> : null}
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm text-gray-600">
            Entry from USD {Number(fee) > 0 ? Number(fee).toFixed(2) : "0.00"}
          </p>
        </Card>
      </aside>
    </div>
  );
}
