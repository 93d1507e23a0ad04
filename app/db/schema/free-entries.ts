// The free entry routes of a pool (issue 29, docs/decisions/530-free-and-postal-entries.md): each free entry with
// the address it came from (the per-address daily limit, the admin's counts) and its void, and each postal entry by
// its card reference. The entry itself is a row of the pool's ledger and entry list like any other (source types
// free_entry and postal_entry, 0 cents); these rows hold what only these routes know.
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamp, createdAt } from "./columns";
import { users } from "./accounts";
import { prizePools } from "./pools";

export const freeEntries = sqliteTable(
  "free_entries",
  {
    id: id(),
    /** The pool the entry went to (the requested one, or the host's next if it closed meanwhile). */
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The UTC day (YYYY-MM-DD) of the entry. */
    entryDay: text("entry_day").notNull(),
    /** The sending address (CF-Connecting-IP). */
    address: text("address").notNull(),
    /** The pool contribution's source key: `free:<pool>:<account>:<UTC day>` (one a pool, account and day). */
    sourceKey: text("source_key").notNull(),
    entryNumber: integer("entry_number"),
    createdAt: createdAt(),
    voidedAt: timestamp("voided_at"),
    voidReason: text("void_reason"),
    voidedBy: text("voided_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("free_entries_source_key_unique").on(t.sourceKey),
    index("free_entries_day_address_idx").on(t.entryDay, t.address),
    index("free_entries_pool_idx").on(t.poolId),
  ],
);

export const postalEntries = sqliteTable(
  "postal_entries",
  {
    id: id(),
    /** The card's reference as the admin wrote it (trimmed, upper case): a card counts once. */
    cardReference: text("card_reference").notNull(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    poolId: text("pool_id")
      .notNull()
      .references(() => prizePools.id, { onDelete: "restrict" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The UTC day (YYYY-MM-DD) the card was received. */
    receivedOn: text("received_on").notNull(),
    recordedBy: text("recorded_by").references(() => users.id, { onDelete: "set null" }),
    /** `postal:<card reference>`. */
    sourceKey: text("source_key").notNull(),
    entryNumber: integer("entry_number"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("postal_entries_card_reference_unique").on(t.cardReference),
    index("postal_entries_pool_idx").on(t.poolId),
  ],
);

export type FreeEntryRow = typeof freeEntries.$inferSelect;
export type PostalEntryRow = typeof postalEntries.$inferSelect;
