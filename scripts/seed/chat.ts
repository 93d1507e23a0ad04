// Chat: one conversation between the demo fan and the demo host.
import { conversationPair } from "../../app/domain/chat";
import type { Person, Seed } from "./context";
import { HOUR, NOW } from "./random";

export function addChat(seed: Seed): void {
  const { rows, demoFan, demoHost } = seed;
  const chat: [from: Person, to: Person, body: string, hoursAgo: number][] = [
    [demoFan, demoHost, "Hi Nadia! Does the Indigo cushion cover fade in the wash?", 30],
    [demoHost, demoFan, "Hi Sofia! Not at all, we fix the dye twice. Cold wash and it stays deep blue for years.", 29],
    [demoFan, demoHost, "Perfect, ordering two for the Raya group buy then.", 28],
    [demoHost, demoFan, "Yay! Your tracking number is on the order page once it ships.", 5],
  ];
  const [userLowId, userHighId] = conversationPair(demoFan.id, demoHost.id);
  const conversationId = crypto.randomUUID();
  rows.chatConversations.push({
    id: conversationId,
    userLowId,
    userHighId,
    createdAt: new Date(NOW - 30 * HOUR),
    lastMessageAt: new Date(NOW - 5 * HOUR),
  });
  for (const [from, to, body, hoursAgo] of chat) {
    rows.chatMessages.push({
      conversationId,
      senderId: from.id,
      recipientId: to.id,
      body,
      createdAt: new Date(NOW - hoursAgo * HOUR),
      readAt: hoursAgo > 6 ? new Date(NOW - (hoursAgo - 1) * HOUR) : null,
    });
  }
}
