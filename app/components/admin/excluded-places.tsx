// /admin: the excluded places (docs/product.md#eligibility). Each form posts intent=excluded-place to the admin action.
import { Form } from "react-router";
import { Table } from "~/components/cards";
import { Badge, Button } from "~/components/page";
import type { ExcludedPlacesAdminData } from "~/lib/excluded-places.server";

export function ExcludedPlaces({
  data,
  busy,
  error,
}: {
  data: ExcludedPlacesAdminData;
  busy: boolean;
  error?: string;
}) {
  return (
    <div className="space-y-4" data-testid="excluded-places">
      <p className="text-sm text-gray-600">
        Entries, paid guesses and free entries are refused for fans whose country or region is on this list, and the
        official rules list it. Codes are ISO 3166-1 countries (MY) or ISO 3166-2 regions (US-NY).
      </p>
      {data.excluded.length === 0 ? (
        <p className="rounded-xl border border-gray-200 bg-white p-4 text-sm text-gray-600">
          No place is excluded: entries are offered everywhere.
        </p>
      ) : (
        <Table head={["Place", "Code", ""]}>
          {data.excluded.map((p) => (
            <tr key={p.code}>
              <td className="px-4 py-2 font-medium text-gray-900">{p.name}</td>
              <td className="px-4 py-2 font-mono text-xs">{p.code}</td>
              <td className="px-4 py-2 text-right">
                <Form method="post">
                  <input type="hidden" name="intent" value="excluded-place" />
                  <input type="hidden" name="change" value="remove" />
                  <input type="hidden" name="code" value={p.code} />
                  <Button type="submit" size="sm" variant="secondary" disabled={busy}>
                    Remove
                  </Button>
                </Form>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="excluded-place" />
        <input type="hidden" name="change" value="add" />
        <label className="text-sm">
          <span className="block font-medium text-gray-700">Country or region code</span>
          <input
            name="code"
            required
            maxLength={10}
            placeholder="US-NY"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "excluded-place-error" : undefined}
            className="mt-1 block rounded-lg border border-gray-300 px-3 py-2 font-mono text-sm uppercase aria-[invalid=true]:border-red-500"
          />
        </label>
        <Button type="submit" variant="secondary" disabled={busy}>
          Exclude
        </Button>
      </Form>
      {error ? (
        <p id="excluded-place-error" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
      <div>
        <h3 className="text-sm font-semibold text-gray-900">Needs the operator&apos;s legal decision</h3>
        <p className="text-sm text-gray-600">
          These places are not excluded unless you add them. Decide with legal advice whether to offer entries there.
        </p>
        <ul className="mt-2 space-y-2 text-sm">
          {data.flagged.map((p) => (
            <li key={p.code} className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2">
              <span className="font-medium text-gray-900">
                {p.name} ({p.code})
              </span>{" "}
              {p.excluded ? <Badge tone="red">Excluded</Badge> : <Badge tone="yellow">Offered</Badge>}
              <span className="block text-gray-700">{p.why}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
