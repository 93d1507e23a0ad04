// The Guess & Win game form's rules and messages (docs/product.md#guess-and-win), shared by the browser and the server.
import { z } from "zod";
import { moneyTextProblem, parseMoneyToCents } from "~/domain/money";
import {
  GAME_ENTRY_FEE_DEFAULT_CENTS,
  GAME_ENTRY_FEE_MAX_CENTS,
  GAME_ENTRY_FEE_MIN_CENTS,
  GAME_OPTIONS_MAX,
  GAME_OPTIONS_MIN,
} from "~/domain/catalog";

export const GAME_MESSAGES = {
  /** Sealed guesses: the answer and options a guess was made against never change. */
  answerLocked: "The answer and options can't be changed once someone has guessed.",
  /** Our own rule (docs/product.md#guess-and-win): a completed game's texts are final. */
  completedNotEditable: "This game has ended, so it can no longer be edited.",
  question: "Please enter a question",
  description: "Please enter a description",
  video: "Please upload a video or provide a video URL",
  /** Our own messages for a video URL that cannot be used (docs/product.md#guess-and-win): not a link we take, */
  videoUrlFormat:
    "That video URL is not a link we can use: paste the full address of a video uploaded here, starting with https://",
  /** a link to somewhere else than the host's own uploads, */
  videoUrlElsewhere:
    "Only videos you uploaded here can be used: upload the video, or paste the link of a video you uploaded here before.",
  /** or a link of theirs where no checked video is stored (the browser says it too when the video does not load). */
  videoUrlNotLoading:
    "That video URL does not load a video you uploaded here. Please check the link, or upload the video instead.",
  videoTooShort: "Video must be at least 30 seconds long",
  options: "Please provide at least 2 answer options",
  optionsMax: `Please provide at most ${GAME_OPTIONS_MAX} answer options`,
  correctMissing: "Please select which option is the correct answer",
  correctInvalid: "Please select a correct answer from the available options",
  optionsDistinct: "Each answer option must be different",
  entryFeeMin: "Entry fee must be at least USD 1",
  entryFeeMissing: "Please enter an entry fee",
  entryFeeDecimals: "Entry fee must be in whole cents (at most 2 decimal places)",
  entryFeeNumber: "Entry fee must be a plain amount in USD, such as 3 or 2.50",
  entryFeeMax: `Entry fee must be at most USD ${GAME_ENTRY_FEE_MAX_CENTS / 100}`,
  signIn: "Please sign in to create a game",
  createFailed: "Failed to create game. Please try again.",
  uploadFailed: "Failed to upload video. Please try again.",
  deleteFailed: "Failed to delete game: Please try again.",
  statusFailed: (reason: string) => `Failed to update game status: ${reason}`,
} as const;

export const QUESTION_MAX = 300;
export const DESCRIPTION_MAX = 5000;
export const OPTION_MAX = 200;

export type GameFormValues = {
  question: string;
  description: string;
  videoKey: string;
  videoUrl: string;
  options: string[];
  correctAnswer: string;
  /** USD as typed. */
  entryFee: string;
};

export const emptyGameForm = (): GameFormValues => ({
  question: "",
  description: "",
  videoKey: "",
  videoUrl: "",
  options: ["", ""],
  correctAnswer: "",
  entryFee: String(GAME_ENTRY_FEE_DEFAULT_CENTS / 100),
});

/**
 * The storage key of a video URL (docs/product.md#guess-and-win), or why it cannot be used: a Guess & Win video is
 * only ever one uploaded here, at /media/guess-win-videos/... on this site (relative, or absolute https on `origin`),
 * because neither the browser nor the Worker can check the length of a video elsewhere. Whose video it is, and
 * whether it is stored, the server checks after this (and the browser by loading it).
 */
export function videoUrlKey(url: string, origin: string): { ok: true; key: string } | { ok: false; message: string } {
  const text = url.trim();
  let path = text;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      return { ok: false, message: GAME_MESSAGES.videoUrlFormat };
    }
    if (parsed.protocol !== "https:") return { ok: false, message: GAME_MESSAGES.videoUrlFormat };
    if (parsed.origin !== origin || parsed.search || parsed.hash)
      return { ok: false, message: GAME_MESSAGES.videoUrlElsewhere };
    path = parsed.pathname;
  } else if (!text.startsWith("/")) {
    return { ok: false, message: GAME_MESSAGES.videoUrlFormat };
  }
  const match = /^\/media\/(guess-win-videos\/[A-Za-z0-9._\-/]+)$/.exec(path);
  if (!match || match[1]!.includes("..")) return { ok: false, message: GAME_MESSAGES.videoUrlElsewhere };
  return { ok: true, key: match[1]! };
}

/** Form values from posted fields (`option` repeated). */
export function readGameForm(form: FormData): GameFormValues {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  return {
    question: text("question").slice(0, QUESTION_MAX + 1),
    description: text("description").slice(0, DESCRIPTION_MAX + 1),
    videoKey: text("videoKey").trim(),
    videoUrl: text("videoUrl").trim(),
    options: form
      .getAll("option")
      .filter((v): v is string => typeof v === "string")
      .slice(0, 20)
      .map((v) => v.slice(0, OPTION_MAX + 1)),
    correctAnswer: text("correctAnswer"),
    entryFee: text("entryFee").trim(),
  };
}

/** The message for an entry fee that is not an amount at all (empty, 2.555, "abc"); too large is over the maximum. */
function entryFeeTextMessage(text: string): string {
  switch (moneyTextProblem(text)) {
    case "empty":
      return GAME_MESSAGES.entryFeeMissing;
    case "decimals":
      return GAME_MESSAGES.entryFeeDecimals;
    case "tooLarge":
      return GAME_MESSAGES.entryFeeMax;
    default:
      return GAME_MESSAGES.entryFeeNumber;
  }
}

const schema = z
  .object({
    question: z
      .string()
      .trim()
      .min(1, GAME_MESSAGES.question)
      .max(QUESTION_MAX, `Question must be at most ${QUESTION_MAX} characters`),
    description: z
      .string()
      .trim()
      .min(1, GAME_MESSAGES.description)
      .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`),
    video: z.string().min(1, GAME_MESSAGES.video),
    options: z
      .array(z.string().trim().max(OPTION_MAX, `Options must be at most ${OPTION_MAX} characters`))
      .transform((list) => list.filter((o) => o.length > 0))
      .pipe(
        z
          .array(z.string())
          .min(GAME_OPTIONS_MIN, GAME_MESSAGES.options)
          .max(GAME_OPTIONS_MAX, GAME_MESSAGES.optionsMax),
      ),
    correctAnswer: z.string().trim().min(1, GAME_MESSAGES.correctMissing),
    entryFee: z
      .string()
      // Money is parsed as text into integer cents, never through a float; text that is not an amount is told why.
      .transform((v, ctx) => {
        const cents = parseMoneyToCents(v);
        if (cents !== null) return cents;
        ctx.addIssue({ code: "custom", message: entryFeeTextMessage(v) });
        return z.NEVER;
      })
      .pipe(
        z
          .number()
          .refine((cents) => cents >= GAME_ENTRY_FEE_MIN_CENTS, GAME_MESSAGES.entryFeeMin)
          .refine((cents) => cents <= GAME_ENTRY_FEE_MAX_CENTS, GAME_MESSAGES.entryFeeMax),
      ),
  })
  .superRefine((v, ctx) => {
    // Two options reading the same (case and outer spaces aside) would leave a fan unable to tell which is right.
    const seen = new Set(v.options.map((o) => o.toLocaleLowerCase()));
    if (seen.size < v.options.length) {
      ctx.addIssue({ code: "custom", path: ["options"], message: GAME_MESSAGES.optionsDistinct });
    }
    if (v.correctAnswer && !v.options.includes(v.correctAnswer)) {
      ctx.addIssue({ code: "custom", path: ["correctAnswer"], message: GAME_MESSAGES.correctInvalid });
    }
  });

export type ValidGame = {
  question: string;
  description: string;
  options: string[];
  correctAnswer: string;
  entryFeeCents: number;
};

export type GameFormResult = { ok: true; game: ValidGame } | { ok: false; errors: Record<string, string> };

/**
 * Checks the form in the order of its fields. `hasVideo` says whether a video is present (a fresh upload or URL, or the
 * game's current one when editing); the server verifies the video itself separately.
 */
export function validateGameForm(values: GameFormValues, hasVideo: boolean): GameFormResult {
  const parsed = schema.safeParse({
    question: values.question,
    description: values.description,
    video: hasVideo ? "yes" : "",
    options: values.options,
    correctAnswer: values.correctAnswer,
    entryFee: values.entryFee,
  });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "form");
      errors[key] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const v = parsed.data;
  return {
    ok: true,
    game: {
      question: v.question,
      description: v.description,
      options: v.options,
      correctAnswer: v.correctAnswer.trim(),
      entryFeeCents: v.entryFee,
    },
  };
}

/** The first message in the form's field order. */
export function firstGameError(errors: Record<string, string>): string | undefined {
  for (const key of ["question", "description", "video", "options", "correctAnswer", "entryFee", "form"]) {
    if (errors[key]) return errors[key];
  }
  return Object.values(errors)[0];
}
