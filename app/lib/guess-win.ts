// The Guess & Win feed's texts and shapes, shared by its route (loader and action) and its card component.

/** The feed's texts (docs/product.md#guess-and-win). */
export const GUESS_WIN_MESSAGES = {
  signInPlay: "Please sign in to play",
  signInShare: "Please sign in to share",
  signInLike: "Please sign in to like this game",
  signInSave: "Please sign in to save this game",
  selectAnswer: "Please select an answer first!",
  freeAvailable: "Free Guess Available",
  shareForFree: "Share = 1 free guess",
  freeUsed: "Free guess already used for this game",
  freeFailed: "Failed to submit free guess. Please try again.",
  confirmEmail: "Please confirm your email to play a free guess: open the link we sent you when you signed up.",
  linkCopied: "Link copied to clipboard!",
  noOptions: "No options available",
  gameNotFound: "This game is not open for guesses",
  /** Said on the host's own game instead of the guess buttons (a host never enters their own pool). */
  ownGame: "You cannot guess on your own game.",
  sealed:
    "Your guess is sealed: nobody learns whether it is right until the game ends, when the answer is published and a correct guess receives its entry in the host's prize pool.",
  unknown: "Unknown action",
} as const;

export function freeGuessSubmittedMessage(answer: string): string {
  return `Free guess submitted with answer: "${answer}". Good luck!`;
}

export function paymentBannerMessage(question: string, answer: string): string {
  return `Payment successful! You've entered the game "${question}" with answer "${answer}". Good luck!`;
}

/** How many of a game's answer options a card shows before "Show more". */
export const SHOWN_OPTIONS = 4;

/** One game of the feed as its card shows it (the loader's answer; never the correct answer). */
export type FeedGame = {
  id: string;
  hostId: string;
  hostName: string;
  hostAvatarUrl: string | null;
  question: string;
  imageUrl: string | null;
  videoUrl: string | null;
  options: string[];
  entryFeeCents: number;
  currency: string;
  likesCount: number;
  commentsCount: number;
  sharesCount: number;
  participantsCount: number;
  createdAt: number;
  pool: { id: string; amountCents: number; targetCents: number; currency: string; endAt: number } | null;
  liked: boolean;
  saved: boolean;
  member: boolean;
  shared: boolean;
  freeUsed: boolean;
  freeEligible: boolean;
};

export type GuessWinActionData = {
  ok: boolean;
  intent: string;
  message?: string;
  gameId?: string;
  hostId?: string;
  count?: number;
  on?: boolean;
};
