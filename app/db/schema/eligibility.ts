// Who may enter a prize draw: self-exclusions, kept apart from accounts so that deleting one leaves them (issue 29).
import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { SELF_EXCLUSION_KEY_KINDS } from "../../domain/self-exclusion";
import { createdAt, timestamp, updatedAt } from "./columns";

/**
 * One key a self-exclusion is kept under and when it ends (docs/product.md#self-exclusion). The key is a keyed hash
 * (HMAC-SHA-256 with SELF_EXCLUSION_SECRET) of the account id, the normalised e-mail, or the normalised name with the
 * date of birth; nothing here names the person. No foreign key: account deletion never touches these rows. `endsAt`
 * only ever moves later.
 */
export const selfExclusions = sqliteTable("self_exclusions", {
  keyHash: text("key_hash").primaryKey(),
  kind: text("kind", { enum: SELF_EXCLUSION_KEY_KINDS }).notNull(),
  endsAt: timestamp("ends_at").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type SelfExclusionRow = typeof selfExclusions.$inferSelect;
