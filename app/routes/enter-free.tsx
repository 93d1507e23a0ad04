import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { FormError, SubmitButton } from "~/components/form";
import { Card, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getEnterableHost, getEntrantFacts } from "~/db/queries/free-entries.server";
import {
  BOT_TOKEN_FIELD,
  FREE_ENTRY_MESSAGES,
  freeEntryAccountRefusal,
  TURNSTILE_SCRIPT_URL,
} from "~/domain/free-entries";
import { botCheckWidget } from "~/lib/bot-check.server";
import { getEnv } from "~/lib/context";
import { enterForFree } from "~/lib/free-entries.server";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { getOpenPool } from "~/lib/pools.server";
import type { Route } from "./+types/enter-free";

export const meta: Route.MetaFunction = () => pageMeta("Enter for free");

/**
 * GET/POST /enter-free/{hostId}: the free entry route of a host's pool (docs/product.md#free-entry): one entry per
 * pool per account per UTC day, with the same chance as a paid one. The official rules link here.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const hostId = idParam(params.hostId);
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const host = await getEnterableHost(db, hostId);
  if (!host) notFound();
  const [pool, facts] = await Promise.all([getOpenPool(env, hostId), getEntrantFacts(db, user.id)]);
  const widget = botCheckWidget(env);
  return {
    host,
    pool: pool ? { entries: pool.entriesCount, endAt: pool.endAt.toISOString() } : null,
    // What the server will refuse anyway, said before the form is filled in.
    accountNotice: facts ? freeEntryAccountRefusal(facts, new Date()) : FREE_ENTRY_MESSAGES.signIn,
    withholding: facts?.withholdWinnerName ?? false,
    widget,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const hostId = idParam(params.hostId);
  const user = await requireUser(context, request);
  const result = await enterForFree(getEnv(context), {
    user,
    hostId,
    form: await request.formData(),
    address: request.headers.get("CF-Connecting-IP"),
  });
  if (!result.ok) return data({ ok: false as const, message: result.message }, { status: result.status });
  return { ok: true as const, entryNumber: result.entryNumber, hostName: result.hostName };
}

export default function EnterFree({ loaderData, actionData }: Route.ComponentProps) {
  const { host, pool, accountNotice, withholding, widget } = loaderData;
  const busy = useNavigation().state !== "idle";
  return (
    <Page
      title="Enter for free"
      subtitle={`${host.name}'s prize pool`}
      back={{ to: `/profile/${host.id}`, label: `Back to ${host.name}` }}
      width="narrow"
    >
      <Card className="space-y-4 p-6">
        <p className="text-sm text-gray-700">
          No purchase is needed. A free entry has exactly the same chance as a paid one: one entry per pool per day
          (UTC) for a confirmed account at least a day old. You can also enter by post; see the{" "}
          <Link to="/official-rules#free-entry" className="font-semibold text-brand-700 hover:underline">
            official rules
          </Link>
          .
        </p>
        {pool ? (
          <p className="text-sm text-gray-600">
            {`Entries so far: ${pool.entries}. The pool closes at its end (${pool.endAt.slice(0, 10)}) or earlier when its target is reached.`}
          </p>
        ) : (
          <p className="text-sm text-gray-600">The host&apos;s next pool opens with your entry.</p>
        )}
        {actionData?.ok ? (
          <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
            {actionData.entryNumber === null
              ? `Your free entry to ${actionData.hostName}'s pool is recorded; its number appears once the pool confirms it.`
              : `You're in! Your entry number is #${actionData.entryNumber} in ${actionData.hostName}'s pool.`}
          </p>
        ) : (
          <>
            {accountNotice ? <FormError>{accountNotice}</FormError> : null}
            {actionData && !actionData.ok ? <FormError>{actionData.message}</FormError> : null}
            <Form method="post" className="space-y-4">
              <p className="text-sm text-gray-700">{FREE_ENTRY_MESSAGES.publication}</p>
              <label className="flex items-start gap-2 text-sm text-gray-800">
                <input
                  type="checkbox"
                  name="withholdName"
                  defaultChecked={withholding}
                  className="mt-0.5 h-4 w-4 rounded border-gray-300"
                />
                <span>Withhold my name if I win</span>
              </label>
              {widget.kind === "turnstile" ? (
                <>
                  <div
                    className="cf-turnstile"
                    data-sitekey={widget.siteKey}
                    data-response-field-name={BOT_TOKEN_FIELD}
                  />
                  <script src={TURNSTILE_SCRIPT_URL} async defer />
                </>
              ) : widget.kind === "local" ? (
                <input type="hidden" name={BOT_TOKEN_FIELD} value={widget.token} />
              ) : (
                <p className="text-sm text-gray-600">
                  The bot check is not available right now, so free entries are paused.
                </p>
              )}
              <SubmitButton pending={busy}>Enter for free</SubmitButton>
            </Form>
          </>
        )}
      </Card>
    </Page>
  );
}
