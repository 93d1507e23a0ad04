// The free entry routes (issue 29, docs/product.md#free-entry, decision 530): a fan's free entry through the form,
// the platform owner's postal entries and voids. Each entry is a contribution of 0 cents that earns an entry, keyed
// by the fact it records (`free:<pool>:<account>:<UTC day>`, `postal:<card>`), so the same fact applied twice counts
// once, and it goes through addContribution like a paid entry: the same list, the same weight.

import { getDb } from "~/db/client.server";
import { findUserByEmail } from "~/db/queries/accounts.server";
import { recordAudit } from "~/db/queries/admin.server";
import {
  getEnterableHost,
  getEntrantFacts,
  getFreeEntry,
  getPostalEntry,
  insertFreeEntry,
  insertPostalEntry,
  markFreeEntryVoided,
  setFreeEntryOutcome,
  setPostalEntryOutcome,
  setWithholdWinnerName,
} from "~/db/queries/free-entries.server";
import {
  BOT_TOKEN_FIELD,
  FREE_ENTRIES_PER_ADDRESS_PER_DAY,
  FREE_ENTRY_MESSAGES,
  FREE_ENTRY_VOID_MESSAGES,
  freeEntryAccountRefusal,
  freeEntryFormSchema,
  freeEntryKey,
  freeEntryVoidSchema,
  POSTAL_ENTRY_MESSAGES,
  postalEntryKey,
  postalEntrySchema,
  utcDay,
} from "~/domain/free-entries";
import type { SessionUser } from "./auth.server";
import { botVerifier } from "./bot-check.server";
import { entryRefusal } from "./entry-eligibility.server";
import { entryCapReached } from "./pool-cap.server";
import { addContribution, ensureOpenPool, getOpenPool, voidPoolEntry } from "./pools.server";

export type FreeEntryResult =
  | { ok: true; poolId: string; entryNumber: number | null; hostName: string }
  | { ok: false; status: 400 | 403 | 404 | 409 | 429; message: string };

const refuse = (status: 400 | 403 | 404 | 409 | 429, message: string) => ({ ok: false as const, status, message });

/** A cap reached: the same words whichever route asked. */
const CAP_MESSAGE = "You already hold as many entries in this pool as one person may.";

/**
 * A fan's free entry into the host's open pool: a confirmed account at least a day old, eligible (entryRefusal,
 * route free_entry), past the bot check, within the address's daily limit, once per pool per UTC day. The
 * "withhold my name" box sets the account's objection. Returns the entry number.
 */
export async function enterForFree(
  env: Env,
  input: {
    user: SessionUser;
    hostId: string;
    form: FormData;
    address: string | null;
    now?: Date;
    fetcher?: typeof fetch;
  },
): Promise<FreeEntryResult> {
  const now = input.now ?? new Date();
  const parsed = freeEntryFormSchema.safeParse({
    botToken: input.form.get(BOT_TOKEN_FIELD),
    withholdName: input.form.get("withholdName"),
  });
  if (!parsed.success) return refuse(400, FREE_ENTRY_MESSAGES.botCheck);
  const db = getDb(env);
  const host = await getEnterableHost(db, input.hostId);
  if (!host) return refuse(404, FREE_ENTRY_MESSAGES.noPool);
  const facts = await getEntrantFacts(db, input.user.id);
  if (!facts || facts.deletedAt) return refuse(403, FREE_ENTRY_MESSAGES.signIn);
  const accountRefusal = freeEntryAccountRefusal(facts, now);
  if (accountRefusal) return refuse(403, accountRefusal);
  const refusal = await entryRefusal(env, { userId: input.user.id, hostId: host.id, route: "free_entry", now });
  if (refusal) return refuse(403, refusal.message);
  const address = input.address ?? "unknown";
  if (!(await botVerifier(env, input.fetcher).verify(parsed.data.botToken, input.address))) {
    return refuse(400, FREE_ENTRY_MESSAGES.botCheck);
  }
  if (await entryCapReached(env, { hostId: host.id, userId: input.user.id })) return refuse(409, CAP_MESSAGE);

  const pool = await ensureOpenPool(env, host.id);
  const day = utcDay(now);
  const sourceKey = freeEntryKey(pool.id, input.user.id, day);
  const recorded = await insertFreeEntry(
    db,
    { poolId: pool.id, hostId: host.id, userId: input.user.id, entryDay: day, address, sourceKey },
    FREE_ENTRIES_PER_ADDRESS_PER_DAY,
  );
  if (recorded === "duplicate") return refuse(409, FREE_ENTRY_MESSAGES.alreadyToday);
  if (recorded === "address_limit") return refuse(429, FREE_ENTRY_MESSAGES.addressLimit);
  if (parsed.data.withholdName) await setWithholdWinnerName(db, input.user.id);

  // The reservation is made with the request: if the pool object call fails, the cron applies it (once).
  const outcome = await addContribution(env, {
    hostId: host.id,
    sourceType: "free_entry",
    sourceKey,
    amountCents: 0,
    currency: pool.currency,
    userId: input.user.id,
    earnsEntry: true,
  });
  await setFreeEntryOutcome(db, sourceKey, outcome.poolId, outcome.entryNumber);
  return { ok: true, poolId: outcome.poolId, entryNumber: outcome.entryNumber, hostName: host.name };
}

export type AdminEntryResult =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 404 | 409; message: string; fieldErrors?: Record<string, string> };

/**
 * The platform owner voids a free entry before its pool's freeze, with a reason written to the audit log: the
 * entry keeps its number and is not drawn (the pool object's void, as for a refunded payment).
 */
export async function voidFreeEntry(env: Env, admin: SessionUser, form: FormData): Promise<AdminEntryResult> {
  const parsed = freeEntryVoidSchema.safeParse({ freeEntryId: form.get("freeEntryId"), reason: form.get("reason") });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      status: 400,
      message: issue?.message ?? FREE_ENTRY_VOID_MESSAGES.notFound,
      fieldErrors: { [String(issue?.path[0] ?? "reason")]: issue?.message ?? "" },
    };
  }
  const db = getDb(env);
  const entry = await getFreeEntry(db, parsed.data.freeEntryId);
  if (!entry) return { ok: false, status: 404, message: FREE_ENTRY_VOID_MESSAGES.notFound };
  if (entry.voidedAt) return { ok: false, status: 409, message: FREE_ENTRY_VOID_MESSAGES.alreadyVoid };
  const result = await voidPoolEntry(env, entry.poolId, entry.sourceKey);
  if (result.outcome === "closed") return { ok: false, status: 409, message: FREE_ENTRY_VOID_MESSAGES.closed };
  if (result.outcome !== "voided" && result.outcome !== "already_void") {
    return { ok: false, status: 404, message: FREE_ENTRY_VOID_MESSAGES.notFound };
  }
  const now = new Date();
  const marked = await markFreeEntryVoided(db, {
    id: entry.id,
    adminId: admin.id,
    reason: parsed.data.reason,
    at: now,
    entryNumber: result.entryNumber,
  });
  if (!marked) return { ok: false, status: 409, message: FREE_ENTRY_VOID_MESSAGES.alreadyVoid };
  await recordAudit(db, {
    adminId: admin.id,
    action: "free_entry_voided",
    targetUserId: entry.userId,
    detail: {
      poolId: entry.poolId,
      entryNumber: result.entryNumber,
      address: entry.address,
      reason: parsed.data.reason,
    },
  });
  return {
    ok: true,
    message: `Free entry #${result.entryNumber ?? "?"} voided: it keeps its number and is not drawn.`,
  };
}

/**
 * The platform owner records a postal entry: the card enters the named host's pool that is open when it is
 * received (a card received before that pool started arrived for a pool that has closed: refused), for an existing
 * account that passes entryRefusal (route postal_entry; staff and the host refused). A card counts once.
 */
export async function recordPostalEntry(
  env: Env,
  admin: SessionUser,
  form: FormData,
  now = new Date(),
): Promise<AdminEntryResult> {
  const parsed = postalEntrySchema.safeParse({
    hostEmail: form.get("hostEmail"),
    entrantEmail: form.get("entrantEmail"),
    cardReference: form.get("cardReference"),
    receivedOn: form.get("receivedOn"),
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return { ok: false, status: 400, message: parsed.error.issues[0]?.message ?? "Invalid card.", fieldErrors };
  }
  const { hostEmail, entrantEmail, cardReference, receivedOn } = parsed.data;
  const db = getDb(env);
  const previous = await getPostalEntry(db, cardReference);
  if (previous) {
    return {
      ok: false,
      status: 409,
      message: `${POSTAL_ENTRY_MESSAGES.alreadyRecorded} (entry #${previous.entryNumber ?? "?"}, received ${previous.receivedOn})`,
    };
  }
  if (receivedOn > utcDay(now)) return { ok: false, status: 400, message: POSTAL_ENTRY_MESSAGES.futureDate };
  const hostAccount = await findUserByEmail(db, hostEmail);
  const host = hostAccount ? await getEnterableHost(db, hostAccount.id) : null;
  if (!host) return { ok: false, status: 404, message: POSTAL_ENTRY_MESSAGES.hostNotFound };
  const entrant = await findUserByEmail(db, entrantEmail);
  if (!entrant || entrant.deletedAt) return { ok: false, status: 404, message: POSTAL_ENTRY_MESSAGES.entrantNotFound };
  const refusal = await entryRefusal(env, { userId: entrant.id, hostId: host.id, route: "postal_entry", now });
  if (refusal) return { ok: false, status: 409, message: refusal.message };
  const pool = await getOpenPool(env, host.id);
  if (!pool) return { ok: false, status: 409, message: POSTAL_ENTRY_MESSAGES.noOpenPool };
  // docs/product.md#free-entry: a card enters the pool open when it is received; a pool closes at its end or
  // earlier when the target is reached, so a card received before the open pool started was for a closed one.
  if (receivedOn < utcDay(pool.startAt)) {
    return { ok: false, status: 409, message: POSTAL_ENTRY_MESSAGES.beforeOpenPool };
  }
  if (await entryCapReached(env, { hostId: host.id, userId: entrant.id })) {
    return { ok: false, status: 409, message: CAP_MESSAGE };
  }
  const sourceKey = postalEntryKey(cardReference);
  const inserted = await insertPostalEntry(db, {
    cardReference,
    hostId: host.id,
    poolId: pool.id,
    userId: entrant.id,
    receivedOn,
    recordedBy: admin.id,
    sourceKey,
  });
  if (!inserted) return { ok: false, status: 409, message: POSTAL_ENTRY_MESSAGES.alreadyRecorded };
  const outcome = await addContribution(env, {
    hostId: host.id,
    sourceType: "postal_entry",
    sourceKey,
    amountCents: 0,
    currency: pool.currency,
    userId: entrant.id,
    earnsEntry: true,
  });
  await setPostalEntryOutcome(db, sourceKey, outcome.poolId, outcome.entryNumber);
  await recordAudit(db, {
    adminId: admin.id,
    action: "postal_entry_recorded",
    targetUserId: entrant.id,
    detail: { cardReference, receivedOn, hostId: host.id, poolId: outcome.poolId, entryNumber: outcome.entryNumber },
  });
  return {
    ok: true,
    message: `Card ${cardReference} recorded: entry #${outcome.entryNumber ?? "?"} in ${host.name}'s pool.`,
  };
}
