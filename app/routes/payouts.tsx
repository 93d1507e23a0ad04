import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { Table } from "~/components/cards";
import { FormError } from "~/components/form";
import { Badge, Button, Card, DateText, EmptyState, Page, pageMeta, Pagination, Section } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listPayoutMethods, listPayouts, setDefaultPayoutMethod } from "~/db/queries/payouts.server";
import { formatCents } from "~/domain/money";
import {
  maskedAccount,
  PAYOUT_HISTORY_PAGE_SIZE,
  PAYOUT_MESSAGES,
  PAYOUT_STATUS_LABELS,
  withdrawalFailedText,
} from "~/domain/payouts";
import { pageParam, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { PaymentsNotConfiguredError } from "~/lib/payments/providers/provider.server";
import { cancelPayout, retryPayout, startPayoutOnboarding } from "~/lib/payments/connect/payouts.server";
import { miniPrizeNotices, prizeNotices } from "~/lib/payments/connect/prizes.server";
import { PrizeNotice } from "~/components/prize-notice";
import { flashToastCookie } from "~/lib/toast.server";
import type { Route } from "./+types/payouts";

export const meta: Route.MetaFunction = () => pageMeta("Payouts");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const page = pageParam(request);
  const [prizes, miniPrizes, methods, history] = await Promise.all([
    prizeNotices(env, user.id),
    miniPrizeNotices(env, user.id),
    listPayoutMethods(db, user.id),
    listPayouts(db, user.id, { limit: PAYOUT_HISTORY_PAGE_SIZE, offset: (page - 1) * PAYOUT_HISTORY_PAGE_SIZE }),
  ]);
  return {
    prizes,
    miniPrizes,
    page,
    hasNext: page * PAYOUT_HISTORY_PAGE_SIZE < history.total,
    methods: methods.map((m) => ({
      id: m.id,
      holder: m.holderName,
      bank: m.bankName || "Bank account",
      account: maskedAccount(m.accountLast4),
      verified: m.verified,
      isDefault: m.isDefault,
      country: m.country,
    })),
    payouts: history.rows.map((p) => ({
      id: p.id,
      type: p.payoutType === "prize_winner" ? "Prize" : "Withdrawal",
      amount: formatCents(p.amountCents, p.currency),
      fee: p.feeCents > 0 ? formatCents(p.feeCents, p.currency) : null,
      status: p.status,
      statusLabel: PAYOUT_STATUS_LABELS[p.status],
      failureReason: p.failureReason,
      bankPayoutStatus: p.bankPayoutStatus,
      estimatedArrivalAt: p.estimatedArrivalAt,
      manualNote: p.manualNote,
      createdAt: p.createdAt,
    })),
  };
}

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("connect") }),
  z.object({ intent: z.literal("default"), methodId: z.string().uuid() }),
  z.object({ intent: z.literal("cancel"), payoutId: z.string().uuid() }),
  z.object({ intent: z.literal("retry"), payoutId: z.string().uuid() }),
]);

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const origin = new URL(request.url).origin;
  const parsed = ActionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: "That request is not valid." }, { status: 400 });
  const input = parsed.data;
  switch (input.intent) {
    case "connect": {
      try {
        return redirect(await startPayoutOnboarding(env, origin, user, "/payouts"));
      } catch (error) {
        if (error instanceof PaymentsNotConfiguredError)
          return data({ error: PAYOUT_MESSAGES.unavailable }, { status: 503 });
        console.error("payouts: could not start onboarding", error);
        return data({ error: PAYOUT_MESSAGES.unavailable }, { status: 502 });
      }
    }
    case "default": {
      const ok = await setDefaultPayoutMethod(getDb(env), user.id, input.methodId);
      return ok ? data({ error: null }) : data({ error: PAYOUT_MESSAGES.notVerified }, { status: 404 });
    }
    case "cancel": {
      const result = await cancelPayout(env, user.id, input.payoutId);
      if (!result.ok) return data({ error: result.message }, { status: result.status });
      return redirect("/payouts", {
        headers: {
          "Set-Cookie": flashToastCookie({
            message: "Payout cancelled; the amount is back in your balance.",
            type: "success",
          }),
        },
      });
    }
    case "retry": {
      const result = await retryPayout(env, origin, user.id, input.payoutId);
      if (!result.ok) return data({ error: result.message }, { status: result.status });
      if (result.payout.status === "failed")
        return data(
          { error: withdrawalFailedText(result.payout.failureReason ?? PAYOUT_MESSAGES.initiateFailed) },
          { status: 502 },
        );
      return redirect("/payouts", {
        headers: { "Set-Cookie": flashToastCookie({ message: "Payout sent again.", type: "success" }) },
      });
    }
  }
}

const STATUS_TONE = {
  pending: "yellow",
  processing: "blue",
  completed: "green",
  failed: "red",
  cancelled: "gray",
} as const;

export default function Payouts({ loaderData, actionData }: Route.ComponentProps) {
  const { methods, payouts, page, hasNext, prizes, miniPrizes } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <Page
      title="Payouts"
      subtitle="Where your earnings and prizes are paid, and every payout so far."
      back={{ to: "/revenue-management", label: "Back to Revenue Management" }}
    >
      <PrizeNotice prizes={prizes} miniPrizes={miniPrizes} />
      {actionData?.error ? <FormError>{actionData.error}</FormError> : null}
      <Section title="Payout methods">
        <Card>
          {methods.length === 0 ? (
            <p className="text-sm text-gray-700">
              No payout method yet. Payouts are sent through Stripe to the bank account you connect.
            </p>
          ) : (
            <ul className="divide-y divide-gray-100">
              {methods.map((m) => (
                <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <span>
                    <span className="font-medium text-gray-900">{m.bank}</span> {m.account} · {m.holder}
                    {m.country ? ` · ${m.country}` : ""}
                  </span>
                  <span className="flex items-center gap-2">
                    {m.verified ? (
                      <Badge tone="green">Verified</Badge>
                    ) : (
                      <Badge tone="yellow">Verification pending</Badge>
                    )}
                    {m.isDefault ? <Badge tone="brand">Default</Badge> : null}
                    {m.verified && !m.isDefault ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="default" />
                        <input type="hidden" name="methodId" value={m.id} />
                        <button type="submit" className="text-brand-700 hover:underline">
                          Make default
                        </button>
                      </Form>
                    ) : null}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="connect" />
            <Button type="submit" disabled={busy}>
              {methods.some((m) => !m.verified) ? "Continue payout setup" : "Add payout method"}
            </Button>
          </Form>
        </Card>
      </Section>

      <Section title="Payout history">
        {payouts.length === 0 ? (
          <EmptyState title="No payouts yet" message="Withdrawals and prizes you receive appear here." />
        ) : (
          <Table head={["Date", "Type", "Amount", "Status", "Bank payout", ""]}>
            {payouts.map((p) => (
              <tr key={p.id} data-testid="payout-row">
                <td className="px-4 py-2 whitespace-nowrap">
                  <DateText value={p.createdAt} withTime />
                </td>
                <td className="px-4 py-2">{p.type}</td>
                <td className="px-4 py-2 whitespace-nowrap">
                  {p.amount}
                  {p.fee ? <span className="block text-xs text-gray-500">fee {p.fee}</span> : null}
                </td>
                <td className="px-4 py-2">
                  <Badge tone={STATUS_TONE[p.status]}>{p.statusLabel}</Badge>
                  {p.failureReason && p.status === "failed" ? (
                    <span className="block text-xs text-red-700">{p.failureReason}</span>
                  ) : null}
                  {p.manualNote ? (
                    <span className="block text-xs text-gray-600">Settled by hand: {p.manualNote}</span>
                  ) : null}
                </td>
                <td className="px-4 py-2 text-sm">
                  {p.bankPayoutStatus === "paid" ? (
                    "Paid"
                  ) : p.bankPayoutStatus === "failed" ? (
                    "Failed"
                  ) : p.status === "completed" && p.estimatedArrivalAt ? (
                    <>
                      Arrives about <DateText value={p.estimatedArrivalAt} />
                    </>
                  ) : (
                    "—"
                  )}
                </td>
                <td className="px-4 py-2">
                  {p.status === "pending" ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="cancel" />
                      <input type="hidden" name="payoutId" value={p.id} />
                      <button type="submit" className="text-sm font-medium text-red-700 hover:underline">
                        Cancel
                      </button>
                    </Form>
                  ) : p.status === "failed" ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="retry" />
                      <input type="hidden" name="payoutId" value={p.id} />
                      <button type="submit" className="text-sm font-medium text-brand-700 hover:underline">
                        Retry
                      </button>
                    </Form>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination page={page} hasNext={hasNext} hrefFor={(n) => `?page=${n}`} />
      </Section>
    </Page>
  );
}
