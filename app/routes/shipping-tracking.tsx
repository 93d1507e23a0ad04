import { data, Form, useNavigation } from "react-router";
import { Badge, Card, DateText, EmptyState, Page, pageMeta } from "~/components/page";
import { CarrierWithLink, ShippingTimeline } from "~/components/shipping-timeline";
import { getDb } from "~/db/client.server";
import { getTrackedOrder, listShippingUpdates } from "~/db/queries/orders.server";
import { orderStatusText, trackingStatusTone } from "~/domain/orders";
import { getEnv } from "~/lib/context";
import { TRACKING_NUMBER, trackingLink } from "~/domain/shipping";
import type { Route } from "./+types/shipping-tracking";

const TRACK_FAILED = "Failed to track order. Please try again.";

/**
 * The tracking colours (docs/product.md#orders): delivered green, shipped blue, processing yellow, cancelled red,
 * else grey.
 */
function TrackingStatus({ status }: { status: string }) {
  const tone = trackingStatusTone(status);
  return <Badge tone={tone === "grey" ? "gray" : tone}>{orderStatusText(status)}</Badge>;
}

export const meta: Route.MetaFunction = () =>
  pageMeta("Track Your Order", "Follow a shipment with its tracking number.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("tracking");
  if (raw === null) return { tracking: "", error: null, order: null, updates: [] };
  const tracking = raw.trim();
  if (!tracking) return { tracking, error: "Please enter a tracking number", order: null, updates: [] };
  const notFound = { tracking, error: "No order found with this tracking number", order: null, updates: [] };
  if (!TRACKING_NUMBER.test(tracking)) return notFound;
  const db = getDb(getEnv(context));
  try {
    // Exact match on the indexed tracking_number column (never a LIKE); names, e-mails and streets are not selected.
    const order = await getTrackedOrder(db, tracking);
    if (!order) return notFound;
    const updates = await listShippingUpdates(db, order.id, 50);
    return {
      tracking,
      error: null,
      order: { ...order, carrierLink: trackingLink(order.carrier, order.trackingNumber) },
      updates,
    };
  } catch (error) {
    console.error("shipping-tracking: lookup failed", { error });
    return data({ tracking, error: TRACK_FAILED, order: null, updates: [] }, { status: 500 });
  }
}

export default function ShippingTracking({ loaderData }: Route.ComponentProps) {
  const { tracking, error, order, updates } = loaderData;
  const searching = useNavigation().state === "loading";
  return (
    <Page
      title="Track Your Order"
      subtitle="Enter the tracking number from your shipping confirmation."
      width="narrow"
      back={{ to: "/", label: "Back" }}
    >
      <Form method="get" className="flex gap-2" role="search">
        <label htmlFor="tracking" className="sr-only">
          Tracking number
        </label>
        <input
          id="tracking"
          name="tracking"
          // Keyed by the searched number so the box shows the trimmed value after each search.
          key={tracking}
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
          {searching ? "Tracking..." : "Track"}
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
                <TrackingStatus status={order.status} />
              </div>
              <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
                <div>
                  <dt className="text-gray-500">Tracking number</dt>
                  <dd className="font-medium">{order.trackingNumber}</dd>
                </div>
                <div>
                  <dt className="text-gray-500">Carrier</dt>
                  <dd className="font-medium">
                    <CarrierWithLink carrier={order.carrier} link={order.carrierLink} />
                  </dd>
                </div>
                <div>
                  <dt className="text-gray-500">Ordered</dt>
                  <dd className="font-medium">
                    <DateText value={order.createdAt} />
                  </dd>
                </div>
                <div>
                  <dt className="text-gray-500">Shipping to</dt>
                  <dd className="font-medium">
                    {[order.shipCity, order.shipCountry].filter(Boolean).join(", ") || "—"}
                  </dd>
                </div>
                <div>
                  <dt className="text-gray-500">Estimated delivery</dt>
                  <dd className="font-medium">
                    {order.estimatedDeliveryAt ? <DateText value={order.estimatedDeliveryAt} /> : "TBD"}
                  </dd>
                </div>
              </dl>
            </Card>
            <ShippingTimeline title="Tracking History" updates={updates} />
          </div>
        ) : (
          <EmptyState title="Start Tracking" message="Enter your tracking number above to see where your order is." />
        )}
      </div>
    </Page>
  );
}
