// Who may hold an entry in a prize pool, and why not (issue 29, docs/decisions/510-lawful-draws.md). Pure: the
// refusal codes and the messages a fan sees. app/lib/entry-eligibility.server.ts gathers the facts and decides.

/** How an entry would be earned: a paid guess, a purchase that earns an entry, the free route, a postcard. */
export const ENTRY_ROUTES = ["paid_guess", "entry_purchase", "free_entry", "postal_entry"] as const;
export type EntryRoute = (typeof ENTRY_ROUTES)[number];

/** Why an account may not enter (or earn an entry in) a pool. */
export const ENTRY_REFUSAL_CODES = ["staff", "own_pool"] as const;
export type EntryRefusalCode = (typeof ENTRY_REFUSAL_CODES)[number];

export const ENTRY_REFUSAL_MESSAGES: Record<EntryRefusalCode, string> = {
  staff: "Platform staff cannot enter prize pools.",
  own_pool: "Hosts cannot enter their own prize pool.",
};

export interface EntryRefusal {
  code: EntryRefusalCode;
  message: string;
}

export function entryRefusalOf(code: EntryRefusalCode): EntryRefusal {
  return { code, message: ENTRY_REFUSAL_MESSAGES[code] };
}
