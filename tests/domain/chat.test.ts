import { describe, expect, it } from "vitest";
import { CHAT_MESSAGE_MAX_LENGTH, CHAT_MESSAGES, chatMessageSchema, conversationPair, isSendKey } from "~/domain/chat";

describe("chat message rules", () => {
  it("refuses blank messages and keeps inner line breaks", () => {
    for (const blank of ["", " ", "\n\n", "\t \r\n "]) {
      const result = chatMessageSchema.safeParse(blank);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(CHAT_MESSAGES.blank);
    }
    expect(chatMessageSchema.parse("  Hi\r\nthere \n")).toBe("Hi\nthere");
  });

  it("refuses a message over the length limit", () => {
    expect(chatMessageSchema.safeParse("a".repeat(CHAT_MESSAGE_MAX_LENGTH)).success).toBe(true);
    const result = chatMessageSchema.safeParse("a".repeat(CHAT_MESSAGE_MAX_LENGTH + 1));
    expect(result.error?.issues[0]?.message).toBe(CHAT_MESSAGES.tooLong);
  });

  it("sends on Enter, adds a line on Shift+Enter, and never sends while composing", () => {
    expect(isSendKey({ key: "Enter", shiftKey: false })).toBe(true);
    expect(isSendKey({ key: "Enter", shiftKey: true })).toBe(false);
    expect(isSendKey({ key: "Enter", shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: "a", shiftKey: false })).toBe(false);
  });

  it("orders a pair the same way from either side", () => {
    expect(conversationPair("b", "a")).toEqual(["a", "b"]);
    expect(conversationPair("a", "b")).toEqual(["a", "b"]);
  });
});
