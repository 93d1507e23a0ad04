import { useRef, useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { FormError } from "~/components/form";
import { Button, Card, DateText, LinkButton, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getCurrentPool, getHostPoolSettings } from "~/db/queries/pools.server";
import { listPoolMiniPrizes } from "~/db/queries/mini-prizes.server";
import { poolHasEntries, replaceMiniPrizes, setProfilePoolTerms } from "~/db/queries/pool-screens.server";
import { MINI_PRIZES_LOCKED_MESSAGE, sameMiniPrizes } from "~/domain/mini-prizes";
import { addDays, MS_PER_DAY } from "~/domain/countdown";
import { formatCents } from "~/domain/money";
import {
  canEditPoolTerms,
  DEFAULT_POOL_DURATION_DAYS,
  isPoolDuration,
  MAX_MINI_PRIZES,
  nextPoolTerms,
  POOL_DURATION_DAYS,
  POOL_MESSAGES,
  POOL_TERMS_EDIT_WINDOW_DAYS,
  poolEndAt,
  validateHostDeposit,
  validatePoolSettings,
} from "~/domain/pool";
import { getOptionalUser } from "~/lib/auth.server";
import { requireUser } from "~/lib/guards.server";
import { createHostDepositCheckout, redirectToCheckout } from "~/lib/payments/checkout/checkout-session.server";
import { getEnv } from "~/lib/context";
import { getOpenPool, openPool, updatePoolTerms } from "~/lib/pools.server";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/prize-pool-settings";

export const meta: Route.MetaFunction = () => pageMeta("Prize Pool Settings");

export const SETTINGS_SAVED = "Settings saved successfully";
export const TERMS_LOCKED_NOTE = `Your current pool's target and end date are locked after the first ${POOL_TERMS_EDIT_WINDOW_DAYS} days of its run, so they stay as they are; your new target and duration apply to your next pool.`;

/** Rows the form may send; more than this is refused rather than silently cut. */
const MINI_PRIZE_FIELD = /^miniPrizes\.(\d{1,2})\.(name|amount|quantity)$/;

type MiniPrizeRow = { name: string; amountText: string; quantityText: string };
type FormValues = { targetAmount: string; durationDays: string; miniPrizes: MiniPrizeRow[] };

// The form's shape (types and lengths); the product's rules (target, duration, deposit, nameless rows) are the
// domain validators in ~/domain/pool, applied after this.
const MiniPrizeSchema = z.object({
  name: z.string().max(80, "A mini prize name can be at most 80 characters."),
  amountText: z.string().max(40, "A mini prize amount can be at most 40 characters."),
  quantityText: z.string().max(40, "A mini prize quantity can be at most 40 characters."),
});
const SettingsFormSchema = z.object({
  targetAmount: z.string({ error: POOL_MESSAGES.target }).max(20, POOL_MESSAGES.target),
  durationDays: z.string({ error: POOL_MESSAGES.duration }).max(5, POOL_MESSAGES.duration),
  miniPrizes: z.array(MiniPrizeSchema).max(MAX_MINI_PRIZES, `You can add at most ${MAX_MINI_PRIZES} mini prizes.`),
});
const DepositFormSchema = z.object({
  depositAmount: z.string({ error: POOL_MESSAGES.deposit }).max(20, POOL_MESSAGES.deposit),
});

/** The mini prize rows of the form, from fields named miniPrizes.{i}.name / .amount / .quantity, in index order. */
function miniPrizeRows(form: FormData): MiniPrizeRow[] | null {
  const rows = new Map<number, MiniPrizeRow>();
  for (const [key, value] of form.entries()) {
    const match = MINI_PRIZE_FIELD.exec(key);
    if (!match) continue;
    if (typeof value !== "string") return null;
    const index = Number(match[1]);
    const row = rows.get(index) ?? { name: "", amountText: "", quantityText: "" };
    if (match[2] === "name") row.name = value;
    else if (match[2] === "amount") row.amountText = value;
    else row.quantityText = value;
    rows.set(index, row);
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

/** Whole days between a pool's start and end, when that is one of the form's durations. */
function poolDurationDays(startAt: Date, endAt: Date): number {
  const days = Math.round((endAt.getTime() - startAt.getTime()) / MS_PER_DAY);
  return isPoolDuration(days) ? days : DEFAULT_POOL_DURATION_DAYS;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const [saved, open] = await Promise.all([getHostPoolSettings(db, user.id), getOpenPool(env, user.id)]);
  // Without an open pool, the latest pool's mini prizes are the starting point of the next one.
  const source = open ?? (await getCurrentPool(db, user.id)) ?? null;
  const [miniPrizes, entered] = await Promise.all([
    source ? listPoolMiniPrizes(db, source.id) : [],
    open ? poolHasEntries(db, open.id, user.id) : false,
  ]);
  const now = new Date();
  // While the open pool's terms can change, the form edits them; otherwise (locked, or no pool) it shows what was
  // saved for the next pool (decision 640).
  const editable = open !== null && canEditPoolTerms(open.startAt, now);
  const next = nextPoolTerms(saved);
  const targetCents = editable ? open.targetCents : saved ? next.targetCents : 0;
  return {
    targetAmount: targetCents > 0 ? String(Math.floor(targetCents / 100)) : "",
    durationDays: String(editable ? poolDurationDays(open.startAt, open.endAt) : next.durationDays),
    miniPrizes: miniPrizes.map((m) => ({ name: m.name, amountText: m.amountText, quantityText: m.quantityText })),
    /** The open pool has an entry: its mini prizes are fixed (decision 560). */
    miniPrizesLocked: entered,
    pool: open
      ? {
          target: formatCents(open.targetCents, open.currency),
          amount: formatCents(open.amountCents, open.currency),
          startAt: open.startAt.toISOString(),
          endAt: open.endAt.toISOString(),
          editable,
          editableUntil: addDays(open.startAt, POOL_TERMS_EDIT_WINDOW_DAYS).toISOString(),
        }
      : null,
  };
}

type ActionData = { intent: "save" | "deposit"; error: string; values?: FormValues; depositAmount?: string };

function refuse(payload: ActionData, status: number = 400) {
  return data(payload, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const signedIn = await getOptionalUser(context);
  const env = getEnv(context);
  const db = getDb(env);
  const form = await request.formData();

  if (text(form, "intent") === "deposit") {
    const depositAmount = text(form, "depositAmount") ?? "";
    // Signed out meanwhile (session ended while the page was open): say so and keep what was typed.
    if (!signedIn)
      return refuse(
        { intent: "deposit", error: POOL_MESSAGES.signInToDeposit, depositAmount: depositAmount.slice(0, 20) },
        401,
      );
    const user = signedIn;
    const parsed = DepositFormSchema.safeParse({ depositAmount });
    const deposit = parsed.success ? validateHostDeposit(parsed.data.depositAmount) : null;
    if (!deposit || !deposit.ok)
      return refuse({
        intent: "deposit",
        error: deposit?.message ?? POOL_MESSAGES.deposit,
        depositAmount: depositAmount.slice(0, 20),
      });
    const pool = await getOpenPool(env, user.id);
    if (!pool) return refuse({ intent: "deposit", error: POOL_MESSAGES.noPool, depositAmount });
    const checkout = await createHostDepositCheckout(env, {
      user,
      amountCents: deposit.value,
      origin: new URL(request.url).origin,
      cancelPath: "/prize-pool-settings",
    });
    if (!checkout.ok) return refuse({ intent: "deposit", error: checkout.message, depositAmount }, checkout.status);
    return redirectToCheckout(checkout);
  }

  const rows = miniPrizeRows(form);
  const values: FormValues = {
    targetAmount: (text(form, "targetAmount") ?? "").slice(0, 20),
    durationDays: (text(form, "durationDays") ?? "").slice(0, 5),
    miniPrizes: (rows ?? []).slice(0, MAX_MINI_PRIZES).map((r) => ({
      name: r.name.slice(0, 80),
      amountText: r.amountText.slice(0, 40),
      quantityText: r.quantityText.slice(0, 40),
    })),
  };
  if (!signedIn) return refuse({ intent: "save", error: POOL_MESSAGES.signInToSave, values }, 401);
  const user = signedIn;
  if (!rows) return refuse({ intent: "save", error: "Failed to save settings", values });
  const shape = SettingsFormSchema.safeParse({
    targetAmount: text(form, "targetAmount"),
    durationDays: text(form, "durationDays"),
    miniPrizes: rows,
  });
  if (!shape.success)
    return refuse({ intent: "save", error: shape.error.issues[0]?.message ?? "Failed to save settings", values });
  const settings = validatePoolSettings({
    targetAmount: shape.data.targetAmount,
    durationDays: shape.data.durationDays,
    miniPrizes: shape.data.miniPrizes,
  });
  if (!settings.ok) return refuse({ intent: "save", error: settings.message, values });
  const { targetCents, durationDays, miniPrizes } = settings.value;

  // Once the open pool has an entry its mini prizes are fixed (decision 560): a save that would change them is
  // refused whole; one that sends them unchanged (the locked form does) saves the rest.
  let pool = await getOpenPool(env, user.id);
  const entered = pool ? await poolHasEntries(db, pool.id, user.id) : false;
  if (pool && entered && !sameMiniPrizes(await listPoolMiniPrizes(db, pool.id), miniPrizes))
    return refuse({ intent: "save", error: MINI_PRIZES_LOCKED_MESSAGE, values }, 409);

  // Every rule has passed: from here on the settings are written.
  await setProfilePoolTerms(db, user.id, { targetCents, durationDays });
  let locked = false;
  let prizesLocked = false;
  if (!pool) {
    pool = await openPool(env, { hostId: user.id, targetCents, durationDays });
  } else if (canEditPoolTerms(pool.startAt, new Date())) {
    const updated = await updatePoolTerms(env, pool.id, { targetCents, endAt: poolEndAt(pool.startAt, durationDays) });
    if (!updated) {
      // The pool closed a moment ago; its successor (opened with the saved target and duration) is the open pool now.
      locked = true;
      pool = await getOpenPool(env, user.id);
    }
  } else {
    locked =
      pool.targetCents !== targetCents || pool.endAt.getTime() !== poolEndAt(pool.startAt, durationDays).getTime();
  }
  // Mini prizes are fixed when the pool closes or is entered: a pool that closed (or was entered) a moment ago keeps
  // the ones it had.
  if (pool && !entered) {
    const replaced = await replaceMiniPrizes(db, pool.id, user.id, miniPrizes);
    if (replaced === "closed") locked = true;
    else if (replaced === "entered") prizesLocked = true;
  }

  const toast = prizesLocked
    ? flashToastCookie({ message: `${SETTINGS_SAVED}. ${MINI_PRIZES_LOCKED_MESSAGE}`, type: "info", durationMs: 8000 })
    : locked
      ? flashToastCookie({ message: `${SETTINGS_SAVED}. ${TERMS_LOCKED_NOTE}`, type: "info", durationMs: 8000 })
      : flashToastCookie({ message: SETTINGS_SAVED, type: "success" });
  return redirect("/dashboard", { headers: { "Set-Cookie": toast } });
}

const inputClass =
  "mt-1 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

const emptyRow = (): MiniPrizeRow => ({ name: "", amountText: "", quantityText: "" });

export default function PrizePoolSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { pool, miniPrizesLocked } = loaderData;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const saveError = actionData?.intent === "save" ? actionData.error : undefined;
  const depositError = actionData?.intent === "deposit" ? actionData.error : undefined;
  const values = actionData?.values;
  const startRows = values?.miniPrizes.length
    ? values.miniPrizes
    : loaderData.miniPrizes.length
      ? loaderData.miniPrizes
      : [emptyRow()];
  // Row keys count from 0 per page, so the server and the browser render the same ids.
  const nextKey = useRef(startRows.length);
  const [rows, setRows] = useState(() => startRows.map((row, key) => ({ ...row, key })));
  const addRow = () => setRows((list) => [...list, { ...emptyRow(), key: nextKey.current++ }]);
  // A pool with an entry shows its saved mini prizes as they are (read-only, sent back unchanged).
  const shownRows = miniPrizesLocked
    ? (loaderData.miniPrizes.length ? loaderData.miniPrizes : [emptyRow()]).map((row, key) => ({ ...row, key }))
    : rows;

  const update = (key: number, field: keyof MiniPrizeRow, value: string) =>
    setRows((list) => list.map((row) => (row.key === key ? { ...row, [field]: value } : row)));

  return (
    <Page title="Prize Pool Settings" width="narrow" back={{ to: "/dashboard", label: "Back to Dashboard" }}>
      {pool ? (
        <p
          className={`mb-4 rounded-lg px-4 py-3 text-sm ${pool.editable ? "bg-brand-50 text-brand-700" : "bg-amber-50 text-amber-900"}`}
          role="status"
        >
          {pool.editable ? (
            <>
              Your current pool ({pool.amount} of {pool.target}) started <DateText value={pool.startAt} />. You can
              change its target and duration until <DateText value={pool.editableUntil} withTime />; the duration counts
              from the pool's start.
            </>
          ) : (
            <>
              Your current pool ({pool.amount} of {pool.target}, ends <DateText value={pool.endAt} />) has run for more
              than {POOL_TERMS_EDIT_WINDOW_DAYS} days, so its target and duration are locked. The target and duration
              below are your next pool's.{miniPrizesLocked ? null : " Mini prizes can still be changed."}
            </>
          )}
        </p>
      ) : (
        <p className="mb-4 rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-700" role="status">
          You don't have an open prize pool. Saving these settings starts one with this target and duration.
        </p>
      )}

      <Form method="post" className="space-y-6">
        <input type="hidden" name="intent" value="save" />
        <FormError>{saveError}</FormError>
        <Card>
          <h2 className="font-semibold text-gray-900">Pool target and duration</h2>
          <p className="mt-1 text-sm text-gray-600">
            Target and duration can only be edited during the first {POOL_TERMS_EDIT_WINDOW_DAYS} days of a new pool's
            run.
          </p>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="targetAmount" className="block text-sm font-medium text-gray-700">
                Target amount (USD)
              </label>
              <input
                id="targetAmount"
                name="targetAmount"
                type="number"
                inputMode="numeric"
                min={1000}
                step={1000}
                required
                placeholder="e.g. 5000"
                defaultValue={values?.targetAmount ?? loaderData.targetAmount}
                className={inputClass}
                aria-describedby="targetAmount-hint"
              />
              <p id="targetAmount-hint" className="mt-1 text-xs text-gray-500">
                At least 1,000 USD, in steps of 1,000.
              </p>
            </div>
            <div>
              <label htmlFor="durationDays" className="block text-sm font-medium text-gray-700">
                Duration
              </label>
              <select
                id="durationDays"
                name="durationDays"
                defaultValue={values?.durationDays ?? loaderData.durationDays}
                className={inputClass}
              >
                {POOL_DURATION_DAYS.map((days) => (
                  <option key={days} value={String(days)}>
                    {days} days
                  </option>
                ))}
              </select>
            </div>
          </div>
        </Card>

        <Card>
          <h2 className="font-semibold text-gray-900">Mini prizes</h2>
          <p className="mt-1 text-sm text-gray-600">
            Extra prizes beside the main prize, for example "Signed print", amount "100" (its value in USD) or "15%",
            quantity "10" or "unlimited". Rows without a name are not saved.
          </p>
          {miniPrizesLocked ? (
            <p
              className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900"
              data-testid="mini-prizes-locked"
            >
              {MINI_PRIZES_LOCKED_MESSAGE} They stay as they are until the pool closes.
            </p>
          ) : null}
          <ul className="mt-4 space-y-3">
            {shownRows.map((row, i) => (
              <li key={row.key} className="grid gap-2 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
                <div>
                  <label htmlFor={`mini-${row.key}-name`} className="block text-xs font-medium text-gray-700">
                    Name
                  </label>
                  <input
                    id={`mini-${row.key}-name`}
                    name={`miniPrizes.${i}.name`}
                    value={row.name}
                    maxLength={80}
                    readOnly={miniPrizesLocked}
                    onChange={(e) => update(row.key, "name", e.target.value)}
                    className={inputClass}
                  />
                </div>
                <div>
                  <label htmlFor={`mini-${row.key}-amount`} className="block text-xs font-medium text-gray-700">
                    Amount
                  </label>
                  <input
                    id={`mini-${row.key}-amount`}
                    name={`miniPrizes.${i}.amount`}
                    value={row.amountText}
                    maxLength={40}
                    placeholder="100 or 15%"
                    readOnly={miniPrizesLocked}
                    onChange={(e) => update(row.key, "amountText", e.target.value)}
                    className={inputClass}
                  />
                </div>
                <div>
                  <label htmlFor={`mini-${row.key}-quantity`} className="block text-xs font-medium text-gray-700">
                    Quantity
                  </label>
                  <input
                    id={`mini-${row.key}-quantity`}
                    name={`miniPrizes.${i}.quantity`}
                    value={row.quantityText}
                    maxLength={40}
                    placeholder="10 or unlimited"
                    readOnly={miniPrizesLocked}
                    onChange={(e) => update(row.key, "quantityText", e.target.value)}
                    className={inputClass}
                  />
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={miniPrizesLocked || rows.length <= 1}
                  onClick={() => setRows((list) => (list.length > 1 ? list.filter((r) => r.key !== row.key) : list))}
                  aria-label={`Remove mini prize ${i + 1}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            disabled={miniPrizesLocked || rows.length >= MAX_MINI_PRIZES}
            onClick={addRow}
          >
            Add mini prize
          </Button>
        </Card>

        <div className="flex flex-wrap justify-end gap-3">
          <LinkButton to="/dashboard" variant="secondary">
            Cancel
          </LinkButton>
          <button
            type="submit"
            disabled={submitting === "save"}
            className="inline-flex items-center justify-center rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {submitting === "save" ? "Saving..." : "Save Settings"}
          </button>
        </div>
      </Form>

      <Card className="mt-8">
        <h2 className="font-semibold text-gray-900">Host deposit</h2>
        <p className="mt-1 text-sm text-gray-600">
          Add your own money to the current pool. 100% of a deposit goes to the pool; you pay through secure checkout.
        </p>
        <Form method="post" className="mt-4 space-y-3">
          <input type="hidden" name="intent" value="deposit" />
          <FormError>{depositError}</FormError>
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-40 flex-1">
              <label htmlFor="depositAmount" className="block text-sm font-medium text-gray-700">
                Deposit amount (USD)
              </label>
              <input
                id="depositAmount"
                name="depositAmount"
                type="number"
                inputMode="decimal"
                min={1}
                step={0.01}
                required
                placeholder="e.g. 50"
                defaultValue={actionData?.depositAmount}
                className={inputClass}
              />
            </div>
            <button
              type="submit"
              disabled={submitting === "deposit" || !pool}
              className="inline-flex items-center justify-center rounded-lg border border-brand-600 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-60"
            >
              {submitting === "deposit" ? "Starting checkout..." : "Deposit"}
            </button>
          </div>
          {!pool ? (
            <p className="text-xs text-gray-500">Save your settings first to start a pool you can deposit into.</p>
          ) : null}
        </Form>
      </Card>
    </Page>
  );
}
