import { Form } from "react-router";
import { Link } from "~/components/link";
import { Table } from "~/components/cards";
import { Field } from "~/components/form";
import { Badge, Button, DateText, Pagination, Section } from "~/components/page";
import type { FreeEntriesAdminData } from "~/lib/admin-free-entries.server";

type ActionData = { ok: boolean; intent: string; fieldErrors: Record<string, string> } | undefined;

function adminHref(change: Record<string, string | number>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(change)) params.set(key, String(value));
  return `/admin?${params.toString()}#free-entries`;
}

/**
 * /admin's free entry section (decision 530): the day's free entries per sending address, each voidable with a
 * reason while its pool is open (before the freeze), and the postal entry form with the cards recorded so far.
 */
export function FreeEntriesAdmin({
  data,
  actionData,
  busy,
}: {
  data: FreeEntriesAdminData;
  actionData: ActionData;
  busy: boolean;
}) {
  const postalErrors = actionData?.intent === "record-postal-entry" && !actionData.ok ? actionData.fieldErrors : {};
  return (
    <div id="free-entries">
      <Section title="Free entries by address">
        <Form method="get" className="mb-3 flex flex-wrap items-end gap-2">
          <label className="text-sm">
            <span className="block font-medium text-gray-700">Day (UTC)</span>
            <input
              type="date"
              name="freeDay"
              defaultValue={data.day}
              max={data.today}
              className="mt-1 block rounded-lg border border-gray-300 px-3 py-2 text-sm"
            />
          </label>
          <Button type="submit" variant="secondary">
            Show
          </Button>
        </Form>
        {data.addresses.length === 0 ? (
          <p className="rounded-xl border border-gray-200 bg-white p-6 text-center text-sm text-gray-600">
            No free entries on {data.day}.
          </p>
        ) : (
          <Table head={["Address", "Free entries", "Void", "Entries"]}>
            {data.addresses.map((row) => (
              <tr key={row.address} className="align-top">
                <td className="px-4 py-2 font-mono text-xs">{row.address}</td>
                <td className="px-4 py-2">{row.entries}</td>
                <td className="px-4 py-2">{row.voided}</td>
                <td className="px-4 py-2">
                  <ul className="space-y-2">
                    {row.list.map((entry) => (
                      <li key={entry.id} className="text-sm">
                        <span>
                          {`#${entry.entryNumber ?? "?"} · ${entry.entrant} · ${entry.host ?? "host"}'s pool · `}
                          <DateText value={entry.createdAt} withTime />
                        </span>
                        {entry.voidedAt ? (
                          <span className="ml-2">
                            <Badge tone="red">Void</Badge> {entry.voidReason}
                          </span>
                        ) : entry.open ? (
                          <Form method="post" className="mt-1 flex flex-wrap items-center gap-2">
                            <input type="hidden" name="intent" value="void-free-entry" />
                            <input type="hidden" name="freeEntryId" value={entry.id} />
                            <label className="sr-only" htmlFor={`void-${entry.id}`}>
                              Reason for voiding entry #{entry.entryNumber ?? "?"}
                            </label>
                            <input
                              id={`void-${entry.id}`}
                              name="reason"
                              required
                              minLength={3}
                              maxLength={500}
                              placeholder="Reason"
                              className="rounded-lg border border-gray-300 px-2 py-1 text-sm"
                            />
                            <Button type="submit" size="sm" variant="secondary" disabled={busy}>
                              Void
                            </Button>
                          </Form>
                        ) : (
                          <span className="ml-2 text-gray-500">
                            <Link to={`/winner-selection/${entry.poolId}`} className="hover:underline">
                              pool closed
                            </Link>
                          </span>
                        )}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination
          page={data.page}
          hasNext={data.hasMore}
          hrefFor={(page) => adminHref({ freeDay: data.day, freePage: page })}
        />
      </Section>

      <Section title="Postal entries">
        <Form method="post" className="mb-4 grid gap-3 sm:grid-cols-2">
          <input type="hidden" name="intent" value="record-postal-entry" />
          <Field label="Host's e-mail" name="hostEmail" type="email" required error={postalErrors.hostEmail} />
          <Field label="Entrant's e-mail" name="entrantEmail" type="email" required error={postalErrors.entrantEmail} />
          <Field
            label="Card reference"
            name="cardReference"
            required
            maxLength={64}
            hint="Written on the card when it is opened; a card counts once."
            error={postalErrors.cardReference}
          />
          <Field
            label="Received on (UTC)"
            name="receivedOn"
            type="date"
            required
            max={data.today}
            error={postalErrors.receivedOn}
          />
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy}>
              Record postal entry
            </Button>
          </div>
        </Form>
        {data.postal.rows.length === 0 ? (
          <p className="text-sm text-gray-600">No postal entries recorded yet.</p>
        ) : (
          <Table head={["Card", "Received", "Entrant", "Host", "Entry", "Recorded by"]}>
            {data.postal.rows.map((row) => (
              <tr key={row.id}>
                <td className="px-4 py-2 font-mono text-xs">{row.cardReference}</td>
                <td className="px-4 py-2">{row.receivedOn}</td>
                <td className="px-4 py-2">{row.entrantEmail ?? "(deleted account)"}</td>
                <td className="px-4 py-2">{row.hostName}</td>
                <td className="px-4 py-2">
                  <Link to={`/winner-selection/${row.poolId}`} className="hover:underline">
                    #{row.entryNumber ?? "?"}
                  </Link>
                </td>
                <td className="px-4 py-2">{row.recordedByName}</td>
              </tr>
            ))}
          </Table>
        )}
        <Pagination
          page={data.postal.page}
          hasNext={data.postal.hasMore}
          hrefFor={(page) => adminHref({ postalPage: page })}
        />
      </Section>
    </div>
  );
}
