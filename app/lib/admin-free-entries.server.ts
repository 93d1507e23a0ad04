// The platform owner's part of the free entry routes (decision 530): the day's free entries counted per sending
// address (paginated in SQL) with each address's entries to void before their pool's freeze, and the postal
// entries recorded so far. /admin's loader and action call these; the section is app/components/admin/free-entries.tsx.

import { getDb } from "~/db/client.server";
import { listAddressCounts, listFreeEntriesOfAddresses, listPostalEntries } from "~/db/queries/free-entries.server";
import {
  FREE_ENTRIES_PER_ADDRESS_LISTED,
  FREE_ENTRY_ADDRESS_PAGE_SIZE,
  freeEntryAddressQuerySchema,
  utcDay,
} from "~/domain/free-entries";
import type { SessionUser } from "./auth.server";
import { recordPostalEntry, voidFreeEntry, type AdminEntryResult } from "./free-entries.server";

/** The admin page's free entry section: `?freeDay=YYYY-MM-DD&freePage=N&postalPage=N`. */
export async function loadFreeEntriesAdmin(env: Env, params: URLSearchParams, now = new Date()) {
  const query = freeEntryAddressQuerySchema.parse({ day: params.get("freeDay"), page: params.get("freePage") });
  const postalPage = freeEntryAddressQuerySchema.shape.page.parse(params.get("postalPage"));
  const day = query.day ?? utcDay(now);
  const db = getDb(env);
  const [counts, postal] = await Promise.all([
    listAddressCounts(db, day, query.page, FREE_ENTRY_ADDRESS_PAGE_SIZE),
    listPostalEntries(db, postalPage, FREE_ENTRY_ADDRESS_PAGE_SIZE),
  ]);
  const entries = await listFreeEntriesOfAddresses(
    db,
    day,
    counts.rows.map((row) => row.address),
    FREE_ENTRIES_PER_ADDRESS_LISTED,
  );
  return {
    day,
    today: utcDay(now),
    page: query.page,
    hasMore: counts.hasMore,
    addresses: counts.rows.map((row) => ({
      address: row.address,
      entries: Number(row.entries),
      voided: Number(row.voided),
      list: entries
        .filter((entry) => entry.address === row.address)
        .map((entry) => ({
          id: entry.id,
          entrant: entry.entrantEmail ?? "(deleted account)",
          host: entry.hostName,
          poolId: entry.poolId,
          open: entry.poolStatus === "open",
          entryNumber: entry.entryNumber,
          createdAt: entry.createdAt.toISOString(),
          voidedAt: entry.voidedAt?.toISOString() ?? null,
          voidReason: entry.voidReason,
        })),
    })),
    postal: {
      page: postalPage,
      hasMore: postal.hasMore,
      rows: postal.rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    },
  };
}

export type FreeEntriesAdminData = Awaited<ReturnType<typeof loadFreeEntriesAdmin>>;

/** The section's intents, or null when the intent is not one of them. */
export async function freeEntriesAdminAction(
  env: Env,
  admin: SessionUser,
  intent: unknown,
  form: FormData,
): Promise<AdminEntryResult | null> {
  if (intent === "void-free-entry") return voidFreeEntry(env, admin, form);
  if (intent === "record-postal-entry") return recordPostalEntry(env, admin, form);
  return null;
}
