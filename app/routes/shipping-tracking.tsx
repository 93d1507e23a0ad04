import { Form, useNavigation } from "react-router";
import { Card, DateText, EmptyState, Page, pageMeta, StatusBadge } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getTrackedOrder, listShippingUpdates } from "~/db/queries/orders.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/shipping-tracking";

const TRACKING = /^[A-Za-z0-9_-]{1,64}$/;

export const meta: Route.MetaFunction = () => pageMeta("Track Your Order", "Follow a shipment with its tracking number.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("tracking");
  if (raw === null) return { tracking: "", error: null, order: null, updates: [] };
  const tracking = raw.trim();
  if (!tracking) return { tracking, error: "Please enter a tracking number", order: null, updates: [] };
  const notFound = { tracking, error: "No order found with this tracking number", order: null, updates: [] };
  if (!TRACKING.test(tracking)) return notFound;
  const db = getDb(getEnv(context));
  const order = await getTrackedOrder(db, tracking);
  if (!order) return notFound;
  const updates = await listShippingUpdates(db, order.id, 50);
  return { tracking, error: null, order, updates };
}

export default function ShippingTracking({ loaderData }: Route.ComponentProps) {
  const { tracking, error, order, updates } = loaderData;
  const searching = useNavigation().state === "loading";
  return (
    <Page title="Track Your Order" subtitle="Enter the tracking number from your shipping confirmation." width="narrow" back={{ to: "/", label: "Back" }}>
      <Form method="get" className="flex gap-2" role="search">
        <label htmlFor="tracking" className="sr-only">
          Tracking number
        </label>
        <input
          id="tracking"
          name="tracking"
          defaultValue={tracking}
          placeholder="TRK-12345"
          autoComplete="off"
          className="block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
        />
        <button
          type="submit"
          disabled={searching}
          className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
        >
          Track
        </button>
      </Form>

      <div className="mt-6" aria-live="polite">
        {error ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
            {error}
          </p>
        ) : order ? (
          <div className="space-y-4">
            <Card>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="text-xs text-gray-500">Order {order.orderNumber}</p>
                  <p className="font-semibold text-gray-900">{order.productName}</p>
                </div>
                <StatusBadge status={order.status} />
              </div>
              <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
                <div>
                  <dt className="text-gray-500">Tracking number</dt>
                  <dd className="font-medium">{order.trackingNumber}</dd>
                </div>
                <div>
                  <dt className="text-gray-500">Carrier</dt>
                  <dd className="font-medium">{order.carrier ?? "—"}</dd>
                </div>
                <div>
                  <dt className="text-gray-500">Ordered</dt>
                  <dd className="font-medium">
                    <DateText value={order.createdAt} />
                  </dd>
                </div>
                <div>
                  <dt className="text-gray-500">Estimated delivery</dt>
                  <dd className="font-medium">{order.estimatedDeliveryAt ? <DateText value={order.estimatedDeliveryAt} /> : "TBD"}</dd>
                </div>
              </dl>
            </Card>
            <Card>
              <h2 className="font-semibold text-gray-900">Tracking History</h2>
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
          </div>
        ) : (
          <EmptyState title="Start Tracking" message="Enter your tracking number above to see where your order is." />
        )}
      </div>
    </Page>
  );
}
