// Chat rules: message length, the per-account sending rate and the user-visible messages.

import { z } from "zod";

export const CHAT_MESSAGE_MAX_LENGTH = 2000;
/** At most this many messages per account in any rolling window of CHAT_RATE_WINDOW_MS. */
export const CHAT_RATE_LIMIT = 10;
export const CHAT_RATE_WINDOW_MS = 60_000;
/** Messages shown when a thread opens (the newest ones). */
export const CHAT_THREAD_PAGE_SIZE = 100;

export const CHAT_MESSAGES = {
  blank: "Please type a message before sending.",
  tooLong: `A message can be at most ${CHAT_MESSAGE_MAX_LENGTH} characters.`,
  rateLimited: "You're sending messages too fast. Please wait a minute and try again.",
  notFound: "Conversation not found",
} as const;

/** A message body: surrounding blank lines and spaces are trimmed; nothing but whitespace is refused. */
export const chatMessageSchema = z
  .string({ error: CHAT_MESSAGES.blank })
  .transform((value) => value.replace(/\r\n?/g, "\n").trim())
  .pipe(z.string().min(1, CHAT_MESSAGES.blank).max(CHAT_MESSAGE_MAX_LENGTH, CHAT_MESSAGES.tooLong));

/** The two members of a conversation in a fixed order, so a pair has exactly one conversation. */
export function conversationPair(a: string, b: string): [low: string, high: string] {
  return a < b ? [a, b] : [b, a];
}

/** Whether a keydown in the composer sends (Enter) or adds a line (Shift+Enter; also while composing IME text). */
export function isSendKey(event: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return event.key === "Enter" && !event.shiftKey && !event.isComposing;
}
