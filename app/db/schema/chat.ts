// Chat: one conversation per pair of accounts and its messages.
import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamp, createdAt } from "./columns";
import { users } from "./accounts";

/** One conversation per pair of accounts (user_low_id < user_high_id); its live updates come from a ChatRoom object. */
export const chatConversations = sqliteTable(
  "chat_conversations",
  {
    id: id(),
    userLowId: text("user_low_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userHighId: text("user_high_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastMessageAt: timestamp("last_message_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("chat_conversations_pair_unique").on(t.userLowId, t.userHighId),
    index("chat_conversations_high_idx").on(t.userHighId, t.lastMessageAt),
    index("chat_conversations_low_idx").on(t.userLowId, t.lastMessageAt),
  ],
);

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: id(),
    conversationId: text("conversation_id").references(() => chatConversations.id, { onDelete: "cascade" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    recipientId: text("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
    readAt: timestamp("read_at"),
  },
  (t) => [
    index("chat_messages_thread_idx").on(t.senderId, t.recipientId, t.createdAt),
    index("chat_messages_recipient_idx").on(t.recipientId, t.createdAt),
    index("chat_messages_conversation_idx").on(t.conversationId, t.createdAt),
    index("chat_messages_unread_idx")
      .on(t.recipientId)
      .where(sql`read_at IS NULL`),
  ],
);

export type ChatMessage = typeof chatMessages.$inferSelect;
export type ChatConversation = typeof chatConversations.$inferSelect;
export type NewChatMessage = typeof chatMessages.$inferInsert;
