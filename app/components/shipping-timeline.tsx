import { Card, DateText } from "./page";

export type ShippingUpdateView = {
  id: string;
  description: string;
  location: string | null;
  createdAt: Date | string | number;
};

/** The shipping updates of an order, newest first, as the order page and the public tracking page show them. */
export function ShippingTimeline({ title, updates }: { title: string; updates: readonly ShippingUpdateView[] }) {
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">{title}</h2>
      <p className="text-xs text-gray-500">Newest first</p>
      {updates.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">No tracking updates available yet</p>
      ) : (
        <ol className="mt-3 space-y-3 border-l-2 border-gray-200 pl-4">
          {updates.map((u) => (
            <li key={u.id} className="text-sm">
              <p className="font-medium text-gray-900">{u.description}</p>
              <p className="text-gray-500">
                <DateText value={u.createdAt} withTime />
                {u.location ? ` · ${u.location}` : null}
              </p>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

/** A carrier's name and, when its tracking-link template knows the number, a link to the carrier's tracking page. */
export function CarrierWithLink({ carrier, link }: { carrier: string | null; link: string | null }) {
  return (
    <>
      {carrier ?? "TBD"}
      {link ? (
        <>
          {" · "}
          <a href={link} target="_blank" rel="noopener noreferrer" className="text-brand-700 hover:underline">
            Track on the carrier's site
          </a>
        </>
      ) : null}
    </>
  );
}
