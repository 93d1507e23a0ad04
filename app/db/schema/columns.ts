// Column helpers shared by the schema modules (not re-exported by the index).
import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

export const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());

/** Milliseconds since the epoch, computed by SQLite (also used when drizzle omits the value). */
export const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const timestamp = (name: string) => integer(name, { mode: "timestamp_ms" });
export const createdAt = (name = "created_at") => timestamp(name).notNull().default(nowMs);
export const updatedAt = () =>
  timestamp("updated_at")
    .notNull()
    .default(nowMs)
    .$onUpdateFn(() => new Date());

export const cents = (name: string) => integer(name);
export const currency = () => text("currency").notNull().default("USD");
export const bool = (name: string) => integer(name, { mode: "boolean" });
export const count = (name: string) => integer(name).notNull().default(0);
