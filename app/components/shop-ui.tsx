import { memo, useEffect, useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { useFetcher, useLocation, useSubmit } from "react-router";
import { CLIENT_LINKS } from "./link";
import { countdownText, COUNTDOWN_TICK_MS } from "~/domain/countdown";
import { conversionFactor, CURRENCIES, formatIn, COUNTRIES, type SupportedCurrency } from "~/domain/currency";
import { currencyLabel, formatCents, minorUnitDigits } from "~/domain/money";
import { CHECKOUT_CURRENCY, shownPurchaseCents } from "~/domain/payments";
import { derivedRating, derivedReviewCount } from "~/domain/rating";
import { OUT_OF_STOCK } from "~/domain/stock";
import { needsVariantChoice } from "~/domain/cart";
import { useToast } from "./toaster";

// Browser-side pieces of the buyer pages (/shop, /product, /buy-now, /profile): the like toggle, the ticking
// countdown, the product card with its host's pool, and the currency / ship-to selects. No server modules here.

// (Kept here for the pages that import them with the card components; they live with the rate table.)
export { displayCents, formatIn } from "~/domain/currency";

/** A product's price, or its min–max range across sizes, in the display currency. */
export function priceRangeText(
  p: { priceMinCents: number | null; priceMaxCents: number | null; basePriceCents: number; currency: string },
  to: SupportedCurrency,
): string {
  const min = p.priceMinCents ?? p.basePriceCents;
  const max = Math.max(p.priceMaxCents ?? min, min);
  return max > min
    ? `${formatIn(min, p.currency, to)} – ${formatIn(max, p.currency, to)}`
    : formatIn(min, p.currency, to);
}

/** What POST /product/{id} with intent=like answers. */
export type LikeActionData = { ok: true; liked: boolean; likeCount: number } | { ok: false; error: string };

export const LIKE_SIGN_IN_MESSAGE = "Please sign in to like this product";

/** A like as a page shows it: the pending toggle, else the server's last answer, else what the page loaded. */
export type ShownLike = { productId: string; liked: boolean; count: number };

type LikeEntry = {
  liked: boolean;
  count: number;
  /** What the page had loaded when it was set: loader data that has changed since replaces it. */
  loaded: readonly [boolean, number];
  /** The last state the server confirmed, put back when the pending toggle fails; null once answered. */
  before: { liked: boolean; count: number } | null;
};

/** The fetcher key of a product's like: one per product, so likes of different cards run side by side. */
const likeFetcherKey = (productId: string) => `like:${productId}`;

/**
 * The likes of every product a page shows (one on /buy-now, a grid of cards on /shop), each toggled optimistically:
 * the change shows at once, the server's answer confirms it, and a failure puts back the last confirmed state with a
 * toast. Visitors get the sign-in message without a request. One hook per page, however many cards: a like is sent
 * through a fetcher of its own (keyed by product) only once clicked, so rendering a card costs no fetcher.
 */
export function useLikes(signedIn: boolean) {
  const submit = useSubmit();
  const toast = useToast();
  const [entries, setEntries] = useState<Record<string, LikeEntry>>({});

  const of = (productId: string, loadedLiked: boolean, loadedCount: number): ShownLike => {
    const entry = entries[productId];
    return entry && entry.loaded[0] === loadedLiked && entry.loaded[1] === loadedCount
      ? { productId, liked: entry.liked, count: entry.count }
      : { productId, liked: loadedLiked, count: loadedCount };
  };

  /**
   * Sends the like `target` submits (a like form, or the button that submits it: its name, value and formaction
   * are part of the submission) for the product as `shown`; a page sent without hydration posts it natively.
   */
  const send = (
    event: { preventDefault: () => void },
    target: HTMLFormElement | HTMLButtonElement,
    shown: ShownLike,
    loaded: readonly [boolean, number],
  ) => {
    event.preventDefault();
    if (!signedIn) {
      toast({ message: LIKE_SIGN_IN_MESSAGE, type: "error" });
      return;
    }
    const liked = !shown.liked;
    const count = Math.max(0, shown.count + (liked ? 1 : -1));
    setEntries((all) => {
      const previous = all[shown.productId];
      const before = previous?.before ?? { liked: shown.liked, count: shown.count };
      return { ...all, [shown.productId]: { liked, count, loaded, before } };
    });
    void submit(target, { navigate: false, fetcherKey: likeFetcherKey(shown.productId) });
  };

  const answered = (productId: string, result: LikeActionData | null) => {
    setEntries((all) => {
      const entry = all[productId];
      if (!entry?.before) return all;
      const settled = result?.ok ? { liked: result.liked, count: result.likeCount } : entry.before;
      return { ...all, [productId]: { ...settled, loaded: entry.loaded, before: null } };
    });
    if (result && !result.ok) toast({ message: result.error, type: "error" });
  };

  // Each like still waiting for its answer, watched by a component of its own (rendered once, anywhere on the page).
  const pending = Object.keys(entries)
    .filter((productId) => entries[productId]!.before)
    .map((productId) => <LikeAnswer key={productId} productId={productId} onAnswer={answered} />);

  return { of, send, pending };
}

export type Likes = ReturnType<typeof useLikes>;

/**
 * Waits for the answer to a product's pending like and hands it over once; a submission that ended without one (its
 * request failed) hands over null, and the like goes back to what the server last confirmed.
 */
function LikeAnswer({
  productId,
  onAnswer,
}: {
  productId: string;
  onAnswer: (productId: string, result: LikeActionData | null) => void;
}) {
  const fetcher = useFetcher<LikeActionData>({ key: likeFetcherKey(productId) });
  const sent = useRef(false);
  const handed = useRef(false);
  useEffect(() => {
    if (handed.current) return;
    if (fetcher.state !== "idle") sent.current = true;
    else if (fetcher.data || sent.current) {
      handed.current = true;
      onAnswer(productId, fetcher.data ?? null);
    }
  }, [fetcher.state, fetcher.data, productId, onAnswer]);
  return null;
}

/** A form that toggles the like `like` shows (one submit button with the given look and label). */
export function LikeToggleForm({
  likes,
  like,
  loaded,
  className,
  label,
  children,
}: {
  likes: Likes;
  like: ShownLike;
  /** The like and count the page loaded. */
  loaded: readonly [boolean, number];
  className: string;
  label: string;
  children: ReactNode;
}) {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    likes.send(event, submitter instanceof HTMLButtonElement ? submitter : event.currentTarget, like, loaded);
  };
  return (
    <form method="post" action={`/product/${like.productId}`} onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="like" />
      <input type="hidden" name="liked" value={like.liked ? "false" : "true"} />
      <button type="submit" className={className} aria-pressed={like.liked} aria-label={label}>
        {children}
      </button>
    </form>
  );
}

export function HeartIcon({ filled, className = "h-5 w-5" }: { filled: boolean; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill={filled ? "currentColor" : "none"}
      stroke="currentColor"
      strokeWidth={2}
    >
      <path d="M12 21s-7.5-4.6-9.6-9.1C.9 8.6 3 5 6.6 5c2.1 0 3.5 1.1 4.4 2.5h2C13.9 6.1 15.3 5 17.4 5 21 5 23.1 8.6 21.6 11.9 19.5 16.4 12 21 12 21Z" />
    </svg>
  );
}

/**
 * The time, once a second in the browser; null on the server and in the first render after hydration, so a
 * countdown shows the text the server computed until the page runs (hydration always agrees). One per page part
 * that shows countdowns: a grid of cards ticks once for all of them.
 */
export function useNow(): Date | null {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A countdown's text at `now` ('05D 12H 09M' or 'Expired'), else (`now` null) the text the server computed. */
export function countdownAt(endAt: number | null, initial: string, now: Date | null): string {
  return now && endAt !== null ? countdownText(endAt, now) : initial;
}

/** The countdown text ('05D 12H 09M' or 'Expired'), recomputed every second in the browser. */
export function Countdown({
  endAt,
  initial,
  className,
}: {
  endAt: number | null;
  initial: string;
  className?: string;
}) {
  return <span className={className}>{countdownAt(endAt, initial, useNow())}</span>;
}

/** A /shop card as the loader prepares it: every amount already converted and formatted. */
export type ShopCardData = {
  id: string;
  name: string;
  hostName: string | null;
  hostHref: string | null;
  image: string | null;
  price: string;
  /** The host's open pool (its figures follow it live), or null. */
  poolId: string | null;
  pool: string;
  target: string;
  endAt: number | null;
  countdown: string;
  likeCount: number;
  viewCount: number;
  liked: boolean;
  /** Whether anything of it can be bought; a sold-out card shows a disabled 'Out of Stock' instead of Add to Cart. */
  inStock: boolean;
  /**
   * More than one size or colour (needsVariantChoice): the card's Add to Cart is a "Choose options" link to the
   * product page, where they are chosen (decision 600); else it adds the only one in one click.
   */
  choose: boolean;
};

/**
 * A card as the loader's data carries it to the browser: the fields in ShopCardData's order, as a tuple (a page of
 * 24 objects would repeat a reference to every key 24 times in the hydration data). The rating and review count
 * are derived from the counts on both sides.
 */
export type ShopCardRow = [
  id: string,
  name: string,
  hostName: string | null,
  hostHref: string | null,
  image: string | null,
  price: string,
  poolId: string | null,
  pool: string,
  target: string,
  endAt: number | null,
  countdown: string,
  likeCount: number,
  viewCount: number,
  liked: boolean,
  inStock: boolean,
  choose: boolean,
];

function shopCardRow(c: ShopCardData): ShopCardRow {
  return [
    c.id,
    c.name,
    c.hostName,
    c.hostHref,
    c.image,
    c.price,
    c.poolId,
    c.pool,
    c.target,
    c.endAt,
    c.countdown,
    c.likeCount,
    c.viewCount,
    c.liked,
    c.inStock,
    c.choose,
  ];
}

/** A row of a shop read (listShopProducts, listWishlistProducts in db/queries/products.server.ts). */
export type ShopListingRow = {
  id: string;
  name: string;
  hostId: string;
  hostName: string | null;
  hostSlug: string | null;
  image: string | null;
  basePriceCents: number;
  priceMinCents: number | null;
  priceMaxCents: number | null;
  currency: string;
  hostTargetCents: number | null;
  hostCurrency: string | null;
  poolId: string | null;
  poolAmountCents: number | null;
  poolTargetCents: number | null;
  poolCurrency: string | null;
  poolEndAt: Date | null;
  likeCount: number;
  viewCount: number;
  liked: boolean;
  inStock: boolean;
  sizeCount: number;
  colourCount: number;
};

/** A shop read's row as its card: amounts in `currency`, the countdown as of `now`. */
export function shopCardRowOf(r: ShopListingRow, currency: SupportedCurrency, now: Date): ShopCardRow {
  const hasPool = r.poolId !== null;
  const poolCurrency = r.poolCurrency ?? r.hostCurrency ?? "USD";
  return shopCardRow({
    id: r.id,
    name: r.name,
    hostName: r.hostName,
    hostHref: r.hostName ? `/profile/${r.hostSlug ?? r.hostId}` : null,
    image: r.image,
    price: priceRangeText(r, currency),
    poolId: r.poolId,
    pool: formatIn(hasPool ? (r.poolAmountCents ?? 0) : 0, poolCurrency, currency),
    target: formatIn(hasPool ? (r.poolTargetCents ?? 0) : (r.hostTargetCents ?? 0), poolCurrency, currency),
    endAt: r.poolEndAt ? r.poolEndAt.getTime() : null,
    countdown: countdownText(r.poolEndAt, now),
    likeCount: r.likeCount,
    viewCount: r.viewCount,
    liked: r.liked,
    inStock: r.inStock,
    choose: needsVariantChoice({ sizes: r.sizeCount, colours: r.colourCount }),
  });
}

export function shopCardData(row: ShopCardRow): ShopCardData {
  const [
    id,
    name,
    hostName,
    hostHref,
    image,
    price,
    poolId,
    pool,
    target,
    endAt,
    countdown,
    likeCount,
    viewCount,
    liked,
    inStock,
    choose,
  ] = row;
  return {
    id,
    name,
    hostName,
    hostHref,
    image,
    price,
    poolId,
    pool,
    target,
    endAt,
    countdown,
    likeCount,
    viewCount,
    liked,
    inStock,
    choose,
  };
}

/** The id of the one hidden "Favourite" text a /shop grid's like buttons are labelled with (with each card's name). */
export const FAVOURITE_LABEL_ID = "fav";
/** The id of the one form every /shop card's like button submits (to its product: the button's formaction). */
export const LIKE_FORM_ID = "like";
/** The id of the one form every /shop card's Add to Cart button submits (the button sends its product id). */
export const CART_ADD_FORM_ID = "cart-add";

/**
 * What a /shop grid renders once for all its cards: the hidden "Favourite" text the like buttons name themselves
 * with, the like form and the Add to Cart form. Both forms post natively on a page sent without hydration (Add to
 * Cart always: one unit of a product's only size and colour; a product with more to choose from has a link to its
 * page instead, decision 600).
 */
export function ShopGridShared() {
  return (
    <>
      <span id={FAVOURITE_LABEL_ID} hidden>
        Favourite
      </span>
      <form id={LIKE_FORM_ID} method="post" hidden>
        <input type="hidden" name="intent" value="like" />
      </form>
      <form id={CART_ADD_FORM_ID} method="post" action="/cart" hidden>
        <input type="hidden" name="intent" value="add" />
      </form>
    </>
  );
}

/**
 * A /shop page's cards: the grid's shared forms (ShopGridShared) and the cards, whose like buttons are answered by
 * one click handler and one `useLikes` for the whole grid. The cards' links are plain links of a CLIENT_LINKS list:
 * navigated on the client once the page hydrates. `currency` names the currency the cards' live pool figures are in.
 */
export function ShopGrid({
  rows,
  currency,
  signedIn,
  shipTo = "",
  removeForm,
}: {
  rows: readonly ShopCardRow[];
  currency: string;
  signedIn: boolean;
  /** The grid's Ship-to choice, carried on the links to each product's page ("Does not ship to …" there). */
  shipTo?: string;
  /** The id of a form that removes a product from a list (/wishlist): each card then has a Remove button for it. */
  removeForm?: string;
}) {
  const likes = useLikes(signedIn);
  const now = useNow();
  const onClick = (event: MouseEvent<HTMLUListElement>) => {
    const button = event.target instanceof Element ? event.target.closest(`button[form="${LIKE_FORM_ID}"]`) : null;
    if (!(button instanceof HTMLButtonElement)) return;
    const row = rows.find((r) => r[0] === button.closest("[data-product-card]")?.getAttribute("data-product-card"));
    if (!row) return;
    const loaded = [row[13], row[11]] as const;
    likes.send(event, button, likes.of(row[0], ...loaded), loaded);
  };
  return (
    <>
      <ShopGridShared />
      <ul className="shop-grid" data-pool-currency={currency} onClick={onClick} {...CLIENT_LINKS}>
        {rows.map((row, index) => (
          <ShopProductCard
            key={row[0]}
            row={row}
            index={index}
            liked={likes.of(row[0], row[13], row[11]).liked}
            countdown={countdownAt(row[9], row[10], now)}
            shipTo={shipTo}
            removeForm={removeForm}
          />
        ))}
      </ul>
      {likes.pending}
    </>
  );
}

/**
 * A /shop card (styles in app.css under "shop card": the card's parts are styled by their place in it, so a page of
 * 24 cards repeats no class strings). A page repeats it 24 times, so it is plain markup: its links are plain `<a>`
 * (the grid is a CLIENT_LINKS list: the page's one click handler navigates them on the client), its like and Add to
 * Cart buttons belong to the grid's one like form and one cart form (ShopGridShared; a like is sent by the grid's
 * click handler), and its buttons are named by the card's name (`aria-labelledby`) instead of repeating it. `index`
 * makes the card's element ids. Its pool figures follow the pool live (public/page.js): the strip names its pool once
 * (`data-pool`), each figure only which one it shows, in the currency its grid names (`data-pool-currency`).
 */
export const ShopProductCard = memo(function ShopProductCard({
  row,
  index,
  liked,
  countdown,
  shipTo,
  removeForm,
}: {
  row: ShopCardRow;
  index: number;
  /** As shown: a pending like at once (useLikes). */
  liked: boolean;
  /** The countdown's text now (the grid's one ticker). */
  countdown: string;
  /** The grid's Ship-to choice ('' for none), carried to the product page. */
  shipTo: string;
  /** See ShopGrid. */
  removeForm?: string;
}) {
  const p = shopCardData(row);
  const productHref = `/product/${p.id}${shipTo ? `?shipTo=${encodeURIComponent(shipTo)}` : ""}`;
  const nameId = `n${index}`;
  const cartId = `c${index}`;
  const removeId = `r${index}`;
  const show = (field: "amount" | "target") => (p.poolId ? { "data-pool-show": field } : {});
  return (
    <li data-product-card={p.id}>
      {p.image ? <img src={p.image} alt="" loading="lazy" /> : <span aria-hidden="true" />}
      {/* The heart is drawn by CSS (filled when aria-pressed); `liked` travels as the button's value. */}
      <button
        form={LIKE_FORM_ID}
        formAction={`/product/${p.id}`}
        name="liked"
        value={liked ? "false" : "true"}
        aria-pressed={liked}
        aria-labelledby={`${FAVOURITE_LABEL_ID} ${nameId}`}
      />
      {/* The pool strip: each figure after its label (stacked rows on narrow cards, three columns where there is room). */}
      <div {...(p.poolId ? { "data-pool": p.poolId } : {})}>
        <span>
          Prize Pool<b {...show("amount")}>{p.pool}</b>
        </span>
        <span>
          Target<b {...show("target")}>{p.target}</b>
        </span>
        <span>
          Ends in<span>{countdown}</span>
        </span>
      </div>
      <a href={productHref} id={nameId}>
        {p.name || "Unnamed Product"}
      </a>
      {p.hostName ? (
        p.hostHref ? (
          <a href={p.hostHref}>{`by ${p.hostName}`}</a>
        ) : (
          <span>{`by ${p.hostName}`}</span>
        )
      ) : null}
      <b>{p.price}</b>
      <p>
        <b>{derivedRating(p.likeCount).toFixed(1)}</b>
        {` (${derivedReviewCount(p.viewCount, p.likeCount)} reviews)`}
      </p>
      {removeForm ? (
        <button
          form={removeForm}
          name="productId"
          value={p.id}
          id={removeId}
          aria-labelledby={`${removeId} ${nameId}`}
          data-remove
        >
          Remove
        </button>
      ) : null}
      {p.inStock && p.choose ? (
        <a href={productHref} id={cartId} aria-labelledby={`${cartId} ${nameId}`}>
          Choose options
        </a>
      ) : p.inStock ? (
        <button
          form={CART_ADD_FORM_ID}
          name="productId"
          value={p.id}
          id={cartId}
          aria-labelledby={`${cartId} ${nameId}`}
        >
          Add to Cart
        </button>
      ) : (
        <button type="button" disabled id={cartId} aria-labelledby={`${cartId} ${nameId}`}>
          {OUT_OF_STOCK}
        </button>
      )}
    </li>
  );
});

/**
 * A host's product as their profile and profile shop list it: the price already in the page's currency; `inStock`
 * false shows a disabled 'Out of Stock' instead of Buy Now.
 */
export type ProductTileData = {
  id: string;
  name: string;
  image: string | null;
  price: string;
  groupBuyId: string | null;
  inStock: boolean;
};

/**
 * A host's products on their profile (`detailsLabel` "Details") and its shop page ("View Details", `wideActions`:
 * both links share the row and wrap when narrow). Plain markup styled by place (app.css, "product tiles"): its
 * links are plain `<a>` of a CLIENT_LINKS list, which the page's one click handler navigates on the client.
 */
export function ProductTiles({
  products,
  detailsLabel,
  wideActions = false,
  shipTo = "",
}: {
  products: readonly ProductTileData[];
  detailsLabel: string;
  wideActions?: boolean;
  /** The page's Ship-to choice, carried to the product and Buy Now pages ("Does not ship to …" there). */
  shipTo?: string;
}) {
  const search = shipTo ? `?shipTo=${encodeURIComponent(shipTo)}` : "";
  return (
    <ul className={wideActions ? "product-tiles wide-actions" : "product-tiles"} {...CLIENT_LINKS}>
      {products.map((p) => (
        <li key={p.id} data-product-card={p.id}>
          <a href={`/product/${p.id}${search}`} tabIndex={-1} aria-hidden="true">
            {p.image ? <img src={p.image} alt="" loading="lazy" /> : <span />}
          </a>
          <p>{p.name || "Unnamed Product"}</p>
          <p>{p.price}</p>
          <div>
            {p.groupBuyId ? (
              <a href={`/group-buy-product-selection/${p.groupBuyId}`}>Group Buy</a>
            ) : p.inStock ? (
              <a href={`/buy-now/${p.id}${search}`}>Buy Now</a>
            ) : (
              <button type="button" disabled>
                {OUT_OF_STOCK}
              </button>
            )}
            <a href={`/product/${p.id}${search}`}>{detailsLabel}</a>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The markup of a select's options: `<select dangerouslySetInnerHTML={list(value)}>`. */
export type OptionsHtml = { __html: string };

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * A constant option list (value and label of each option) rendered as one HTML string instead of an element per
 * option (/shop's filter bar has over 160 options, a quarter of the page's elements). The string is built on first
 * use and kept for the isolate's life; `list(value)` is that list with `value`'s option marked `selected` (no option
 * when `value` is not in the list, so the browser shows the first), one object per value, so a re-render passes
 * React the same prop and never rewrites the options under a choice the fan has just made.
 */
export function optionList(
  options: () => readonly (readonly [value: string, label: string])[],
): (value: string) => OptionsHtml {
  let parts: string[] | null = null;
  let values: string[] = [];
  let unselected: OptionsHtml | null = null;
  const byValue = new Map<string, OptionsHtml>();
  return (value) => {
    const cached = byValue.get(value);
    if (cached) return cached;
    if (!parts) {
      const list = options();
      values = list.map(([v]) => v);
      parts = list.map(([v, label]) => `<option value="${escapeHtml(v)}">${escapeHtml(label)}</option>`);
      unselected = { __html: parts.join("") };
    }
    const index = values.indexOf(value);
    if (index < 0) return unselected!;
    const html = {
      __html: parts.map((part, i) => (i === index ? part.replace("<option ", "<option selected ") : part)).join(""),
    };
    byValue.set(value, html);
    return html;
  };
}

/** Every supported currency, 'MYR · Malaysian Ringgit'. */
export const currencyOptions = optionList(() => CURRENCIES.map((c) => [c.code, `${c.code} · ${c.name}`]));

/** 'All Countries' (empty value) and the shipping countries. */
export const shipToOptions = optionList(() => [
  ["", "All Countries"],
  ...COUNTRIES.map((c) => [c.code, c.name] as const),
]);

/** The look of a text field or select (app.css: one class, since /shop's filter bar repeats it four times). */
export const fieldClass = "field";

/**
 * A select that submits its GET form as soon as it changes (the form still has a button for no-JS use; on a page
 * sent without hydration /page.js submits it). Its options come as markup from an `optionList`, the chosen one
 * marked; a new value (the page's next filters) mounts a new select.
 */
export function AutoSubmitSelect({
  label,
  name,
  value,
  options,
}: {
  label: string;
  name: string;
  value: string;
  options: OptionsHtml;
}) {
  return (
    <label className="field-label">
      {label}
      <select
        name={name}
        key={value}
        className={`mt-1 ${fieldClass}`}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        data-auto-submit
        dangerouslySetInnerHTML={options}
      />
    </label>
  );
}

/** The id of the form a page's currency select belongs to (CurrencyChoiceForm). */
const CURRENCY_FORM_ID = "currency-choice";

/**
 * A page's currency select (decision 620). It belongs to the page's CurrencyChoiceForm wherever it sits (inside a
 * filter form too): choosing posts the choice to /currency, which remembers it and comes back to this page.
 */
export function CurrencySelect({ value }: { value: string }) {
  return (
    <label className="field-label">
      Currency
      <select
        name="currency"
        form={CURRENCY_FORM_ID}
        key={value}
        className={`mt-1 ${fieldClass}`}
        onChange={(event) => event.currentTarget.form?.requestSubmit()}
        data-auto-submit
        dangerouslySetInnerHTML={currencyOptions(value)}
      />
      {/* Without JavaScript the choice is sent with its own button. */}
      <noscript>
        <button type="submit" form={CURRENCY_FORM_ID} className="mt-1 text-sm font-semibold underline">
          Set currency
        </button>
      </noscript>
    </label>
  );
}

/** The form a CurrencySelect posts (place it outside any other form): POST /currency, then back to this page. */
export function CurrencyChoiceForm() {
  const location = useLocation();
  return (
    <form id={CURRENCY_FORM_ID} method="post" action="/currency" hidden>
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
    </form>
  );
}

/** Quantity stepper that never goes below 1 (nor above `max`); a plain number input without JavaScript. */
export function QuantityStepper({
  value,
  onChange,
  max,
  name = "quantity",
}: {
  value: number;
  onChange: (next: number) => void;
  max: number;
  name?: string;
}) {
  const clamp = (n: number) => Math.min(Math.max(1, Number.isFinite(n) ? Math.floor(n) : 1), Math.max(1, max));
  const button =
    "grid h-10 w-10 place-items-center text-lg font-semibold text-gray-700 hover:bg-gray-50 disabled:cursor-not-allowed disabled:opacity-40";
  return (
    <div data-stepper className="inline-flex items-center overflow-hidden rounded-lg border border-gray-300 bg-white">
      <button
        type="button"
        data-step="-1"
        className={button}
        onClick={() => onChange(clamp(value - 1))}
        disabled={value <= 1}
        aria-label="Decrease quantity"
      >
        −
      </button>
      <input
        type="number"
        name={name}
        min={1}
        max={Math.max(1, max)}
        value={value}
        onChange={(event) => onChange(clamp(Number(event.currentTarget.value)))}
        aria-label="Quantity"
        className="h-10 w-14 border-x border-gray-300 text-center text-sm [appearance:textfield] focus:outline-none"
      />
      <button
        type="button"
        data-step="1"
        className={button}
        onClick={() => onChange(clamp(value + 1))}
        disabled={value >= max}
        aria-label="Increase quantity"
      >
        +
      </button>
    </div>
  );
}

/**
 * A radio choice drawn as a chip; the checked look comes from CSS (`:has(:checked)`), so it also follows a choice
 * made on a page sent without hydration.
 */
export const choiceClass =
  "cursor-pointer rounded-lg border border-gray-300 px-3 py-1.5 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-700 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-50";

/** The size choice of a product page: one radio per size with its price; sold-out sizes are disabled. */
/**
 * The purchase total's element on a product or buy-now page: what checkout charges, shown in `currency`
 * (shownPurchaseCents). On a page sent without hydration /page.js recomputes it when the size or quantity changes
 * as shownPurchaseCents does (the chosen size's `data-unit-cents`, in checkout cents, times the quantity, converted
 * once by this `data-rate` fraction and rounded half up, formatted as formatCents does from this label and number of
 * decimals), and points the BUY NOW link (`data-buy-now`) at the chosen size and quantity.
 */
export function purchaseTotalAttributes(currency: SupportedCurrency) {
  const rate = conversionFactor(CHECKOUT_CURRENCY, currency);
  return {
    "data-total": "",
    "data-label": currencyLabel(currency),
    "data-digits": minorUnitDigits(currency),
    "data-rate": `${rate.numerator}/${rate.denominator}`,
  };
}

export function SizePicker({
  sizes,
  selectedId,
  onSelect,
  currency,
}: {
  /** Each size's `unitCents` is its unit price in checkout cents (toCheckoutCents); it is shown in `currency`. */
  sizes: readonly { id: string; name: string; unitCents: number; availableUnits: number }[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  currency: SupportedCurrency;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-gray-900">Size</legend>
      {sizes.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">Sizes not available.</p>
      ) : (
        <div className="mt-2 flex flex-wrap gap-2">
          {sizes.map((s) => (
            <label key={s.id} className={choiceClass}>
              <input
                type="radio"
                name="size"
                value={s.name}
                className="sr-only"
                checked={s.id === selectedId}
                disabled={s.availableUnits <= 0}
                data-unit-cents={s.unitCents}
                onChange={() => onSelect(s.id)}
              />
              {`${s.name} · ${formatCents(shownPurchaseCents(s.unitCents, 1, currency), currency)}${s.availableUnits <= 0 ? " (sold out)" : ""}`}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/**
 * The colour choice of a product page and Buy Now: one radio per colour with its swatch; sold-out colours are
 * disabled. Nothing for a product without colours.
 */
export function ColourPicker({
  colours,
  selectedId,
  onSelect,
}: {
  colours: readonly { id: string; name: string; hex: string | null; availableUnits: number }[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  if (colours.length === 0) return null;
  return (
    <fieldset className="mt-4">
      <legend className="text-sm font-semibold text-gray-900">Colour</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {colours.map((c) => (
          <label key={c.id} className={`inline-flex items-center gap-2 ${choiceClass}`}>
            <input
              type="radio"
              name="color"
              value={c.name}
              className="sr-only"
              checked={c.id === selectedId}
              disabled={c.availableUnits <= 0}
              onChange={() => onSelect(c.id)}
            />
            {c.hex ? (
              <span
                aria-hidden="true"
                className="h-4 w-4 rounded-full border border-gray-300"
                style={{ backgroundColor: c.hex }}
              />
            ) : null}
            {`${c.name}${c.availableUnits <= 0 ? " (sold out)" : ""}`}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
