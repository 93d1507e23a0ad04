// The host's order and voucher lists share one screen: the Orders/Vouchers tabs, the search and status filter, the
// export, the count, the table (or its empty state) and the pages. /orders and /voucher-management each fill in
// their rows.
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Table } from "~/components/cards";
import { TabNav } from "~/components/tab-nav";
import { buttonClass, EmptyState, LinkButton, Page, Pagination } from "~/components/page";
import { useToast } from "~/components/toaster";
import { orderStatusText } from "~/domain/orders";
import { SEARCH_MAX_LENGTH } from "~/domain/search";
import { filterSearch, ORDER_STATUS_FILTERS, type OrdersTab, VOUCHER_STATUS_FILTERS } from "~/lib/order-filters";

/** The filters and page a list was loaded with, as both loaders return them. */
type SalesListState = {
  tab: OrdersTab;
  q?: string;
  status?: string;
  page: number;
  hasNext: boolean;
  total: number;
  exportCount: number;
};

/** Where each tab lives: the orders on /orders, the vouchers on /voucher-management. */
const SALES_TAB_PATHS: Record<OrdersTab, string> = { orders: "/orders", vouchers: "/voucher-management" };

const TABS: { id: OrdersTab; label: string }[] = [
  { id: "vouchers", label: "Vouchers" },
  { id: "orders", label: "Orders" },
];

/** The address of the list as shown (filters and page), for forms that come back to it. */
export function currentListHref(list: SalesListState): string {
  const { tab, q, status, page } = list;
  return `${SALES_TAB_PATHS[tab]}?${filterSearch({ tab, q, status }, page > 1 ? { page: String(page) } : {})}`;
}

export function SalesTable({
  list,
  head,
  rows,
  before,
  pageError,
}: {
  list: SalesListState;
  /** The column headings. */
  head: string[];
  /** The table rows (<tr>), one per order or voucher; none shows the empty state. */
  rows: ReactNode[];
  /** Shown above the filters (the orders' open return requests). */
  before?: ReactNode;
  pageError?: string | null;
}) {
  const { tab, q, status, page, hasNext, total } = list;
  const path = SALES_TAB_PATHS[tab];
  const hrefFor = (p: number) => `${path}?${filterSearch({ tab, q, status }, { page: String(p) })}`;
  const filtered = Boolean(q || status);
  const vouchers = tab === "vouchers";
  return (
    <Page
      title={vouchers ? "Voucher Management" : "Customer Orders"}
      subtitle="Orders and vouchers for your products, newest first."
      width="wide"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <TabNav
        label="Order sections"
        tabs={TABS.map((t) => ({ ...t, href: `${SALES_TAB_PATHS[t.id]}?tab=${t.id}` }))}
        current={tab}
      />

      {before}

      <FilterBar list={list} />

      {pageError ? (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
          {pageError}
        </p>
      ) : null}

      <p className="mb-2 text-sm text-gray-600">
        {total} {vouchers ? (total === 1 ? "voucher" : "vouchers") : total === 1 ? "order" : "orders"}
      </p>

      {rows.length === 0 ? (
        vouchers ? (
          <EmptyState
            title="No vouchers found"
            message={filtered ? "No voucher matches this search." : "Vouchers bought from your shop appear here."}
          />
        ) : (
          <EmptyState
            title="No orders found"
            message={filtered ? "No order matches this search." : "Orders for your products appear here."}
          />
        )
      ) : (
        <Table head={head}>{rows}</Table>
      )}
      <Pagination page={page} hasNext={hasNext} hrefFor={hrefFor} />
    </Page>
  );
}

function FilterBar({ list }: { list: SalesListState }) {
  const { tab, q, status, exportCount } = list;
  const path = SALES_TAB_PATHS[tab];
  const toast = useToast();
  const statuses: readonly string[] = tab === "vouchers" ? VOUCHER_STATUS_FILTERS : ORDER_STATUS_FILTERS;
  const searching = useNavigation().state === "loading";
  const exportHref = `/orders/export.csv?${filterSearch({ tab, q, status })}`;
  const noun = tab === "vouchers" ? "vouchers" : "orders";
  return (
    <div className="mb-6 flex flex-col gap-2 lg:flex-row lg:items-center">
      <Form method="get" action={path} className="flex flex-1 flex-col gap-2 sm:flex-row" role="search">
        <input type="hidden" name="tab" value={tab} />
        <label className="sr-only" htmlFor="orders-q">
          Search
        </label>
        <input
          id="orders-q"
          name="q"
          type="search"
          defaultValue={q ?? ""}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder={
            tab === "vouchers" ? "Search code, order, customer or product" : "Search order, customer or product"
          }
          className="flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm"
        />
        <label className="sr-only" htmlFor="orders-status">
          Status
        </label>
        <select
          id="orders-status"
          name="status"
          defaultValue={status ?? ""}
          className="rounded-lg border border-gray-300 px-3 py-2 text-sm"
        >
          <option value="">All Status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {orderStatusText(s)}
            </option>
          ))}
        </select>
        <button type="submit" disabled={searching} className={buttonClass("secondary")}>
          Search
        </button>
      </Form>
      <div className="flex gap-2">
        <a
          href={exportHref}
          download
          onClick={() => toast({ message: `Exporting ${exportCount} ${noun}...`, type: "info", durationMs: 3000 })}
          className={buttonClass("secondary")}
        >
          Export
        </a>
        {tab === "vouchers" ? (
          <LinkButton to="/voucher-scanner" variant="primary">
            SCAN
          </LinkButton>
        ) : null}
      </div>
    </div>
  );
}
