import { expect } from "vitest";
import { get, pageText, postForm } from "../helpers";

/**
 * Opens the pair's conversation from `from`'s side: /chat/{userId} redirects to /chat/{conversationId} when it
 * exists, else shows a button that starts it (a POST).
 */
export async function openConversation(cookie: string, otherUserId: string): Promise<string> {
  let res = await get(`/chat/${otherUserId}`, { cookie });
  if (res.status === 200) {
    expect(await pageText(res)).toContain("Start a conversation");
    res = await postForm(`/chat/${otherUserId}`, { intent: "start" }, { cookie });
  }
  expect(res.status).toBe(302);
  const location = res.headers.get("Location")!;
  expect(location).toMatch(/^\/chat\/[0-9a-f-]{36}$/);
  return location.slice("/chat/".length);
}
