import { useEffect, useState, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { useFetcher } from "react-router";
import { CLIENT_LINKS } from "./link";
import { countdownText, COUNTDOWN_TICK_MS } from "~/domain/countdown";
import { conversionFactor, CURRENCIES, formatIn, SHIPPING_COUNTRIES, type SupportedCurrency } from "~/domain/currency";
import { currencyLabel, formatCents, minorUnitDigits } from "~/domain/money";
import { CHECKOUT_CURRENCY, shownPurchaseCents } from "~/domain/payments";
import { derivedRating, derivedReviewCount } from "~/domain/rating";
import { OUT_OF_STOCK } from "~/domain/stock";
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
  return max > min ? `${formatIn(min, p.currency, to)} – ${formatIn(max, p.currency, to)}` : formatIn(min, p.currency, to);
}

/** What POST /product/{id} with intent=like answers. */
export type LikeActionData = { ok: true; liked: boolean; likeCount: number } | { ok: false; error: string };

export const LIKE_SIGN_IN_MESSAGE = "Please sign in to like this product";

/**
 * A product's like state with an optimistic toggle: the change shows at once, the server's answer confirms it, and
 * a failure puts back the last confirmed state with a toast. Visitors get the sign-in message without a request.
 * One hook per product per page; every form it renders shares its fetcher.
 */
export function useProductLike(productId: string, initialLiked: boolean, initialCount: number, signedIn: boolean) {
  const fetcher = useFetcher<LikeActionData>();
  const toast = useToast();
  const [confirmed, setConfirmed] = useState({ liked: initialLiked, count: initialCount });

  useEffect(() => setConfirmed({ liked: initialLiked, count: initialCount }), [initialLiked, initialCount]);
  useEffect(() => {
    const result = fetcher.data;
    if (!result) return;
    if (result.ok) setConfirmed({ liked: result.liked, count: result.likeCount });
    else toast({ message: result.error, type: "error" });
  }, [fetcher.data, toast]);

  const pending = fetcher.formData?.get("liked");
  const liked = typeof pending === "string" ? pending === "true" : confirmed.liked;
  const count = liked === confirmed.liked ? confirmed.count : Math.max(0, confirmed.count + (liked ? 1 : -1));

  // The like is a plain <form> (a page sent without hydration posts it natively), or a button of a form it shares
  // with other products' buttons (/shop); with React the submission goes to the fetcher instead, with the button
  // that submits it (its name, value and formaction are part of the submission).
  const send = (event: { preventDefault: () => void }, target: HTMLFormElement | HTMLButtonElement) => {
    event.preventDefault();
    if (!signedIn) {
      toast({ message: LIKE_SIGN_IN_MESSAGE, type: "error" });
      return;
    }
    void fetcher.submit(target);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    send(event, submitter instanceof HTMLButtonElement ? submitter : event.currentTarget);
  };
  const onClick = (event: MouseEvent<HTMLButtonElement>) => send(event, event.currentTarget);
  return { productId, liked, count, fetcher, onSubmit, onClick };
}

export type ProductLike = ReturnType<typeof useProductLike>;

/** A form that toggles the like of `like` (one submit button with the given look and label). */
export function LikeToggleForm({
  like,
  className,
  label,
  children,
}: {
  like: ProductLike;
  className: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <form method="post" action={`/product/${like.productId}`} onSubmit={like.onSubmit}>
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
    <svg aria-hidden="true" viewBox="0 0 24 24" className={className} fill={filled ? "currentColor" : "none"} stroke="currentColor" strokeWidth={2}>
      <path d="M12 21s-7.5-4.6-9.6-9.1C.9 8.6 3 5 6.6 5c2.1 0 3.5 1.1 4.4 2.5h2C13.9 6.1 15.3 5 17.4 5 21 5 23.1 8.6 21.6 11.9 19.5 16.4 12 21 12 21Z" />
    </svg>
  );
}

/**
 * The countdown text ('05D 12H 09M' or 'Expired'), recomputed every second in the browser. The first render uses
 * the text the server computed, so hydration always agrees.
 */
export function Countdown({ endAt, initial, className }: { endAt: number | null; initial: string; className?: string }) {
  const [text, setText] = useState(initial);
  useEffect(() => {
    setText(initial);
    if (endAt === null) return;
    const timer = setInterval(() => setText(countdownText(endAt, new Date())), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, [endAt, initial]);
  return <span className={className}>{text}</span>;
}

export function ImageBox({ src, alt }: { src: string | null; alt: string }) {
  return (
    <div className="aspect-square w-full overflow-hidden bg-gray-100">
      {src ? (
        <img src={src} alt={alt} loading="lazy" className="h-full w-full object-cover" />
      ) : (
        <div className="grid h-full w-full place-items-center text-gray-400" aria-hidden="true">
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.5} className="h-10 w-10">
            <path d="M3 16l5-5 4 4 3-3 6 6M3 5h18v14H3z" />
          </svg>
        </div>
      )}
    </div>
  );
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
];

export function shopCardRow(c: ShopCardData): ShopCardRow {
  return [c.id, c.name, c.hostName, c.hostHref, c.image, c.price, c.poolId, c.pool, c.target, c.endAt, c.countdown, c.likeCount, c.viewCount, c.liked, c.inStock];
}

export function shopCardData(row: ShopCardRow): ShopCardData {
  const [id, name, hostName, hostHref, image, price, poolId, pool, target, endAt, countdown, likeCount, viewCount, liked, inStock] = row;
  return { id, name, hostName, hostHref, image, price, poolId, pool, target, endAt, countdown, likeCount, viewCount, liked, inStock };
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
 * Cart always: the first size and colour in stock, one unit).
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
 * A /shop card (styles in app.css under "shop card": the card's parts are styled by their place in it, so a page of
 * 24 cards repeats no class strings). A page repeats it 24 times, so it is plain markup: its links are plain `<a>`
 * (the grid is a CLIENT_LINKS list: the page's one click handler navigates them on the client), its like and Add to Cart buttons belong to
 * the grid's one like form and one cart form (ShopGridShared; a like goes to the card's fetcher), and its buttons
 * are named by the card's name (`aria-labelledby`) instead of repeating it. `index` makes the card's element ids.
 * Its pool figures follow the pool live (public/page.js): the strip names its pool once (`data-pool`), each figure
 * only which one it shows, in the currency its grid names (`data-pool-currency`).
 */
export function ShopProductCard({ row, index, signedIn }: { row: ShopCardRow; index: number; signedIn: boolean }) {
  const p = shopCardData(row);
  const like = useProductLike(p.id, p.liked, p.likeCount, signedIn);
  const nameId = `n${index}`;
  const cartId = `c${index}`;
  const show = (field: "amount" | "target") => (p.poolId ? { "data-pool-show": field } : {});
  return (
    <li data-product-card={p.id}>
      {p.image ? <img src={p.image} alt="" loading="lazy" /> : <span aria-hidden="true" />}
      {/* The heart is drawn by CSS (filled when aria-pressed); `liked` travels as the button's value. */}
      <button
        form={LIKE_FORM_ID}
        formAction={`/product/${p.id}`}
        name="liked"
        value={like.liked ? "false" : "true"}
        aria-pressed={like.liked}
        aria-labelledby={`${FAVOURITE_LABEL_ID} ${nameId}`}
        onClick={like.onClick}
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
          Ends in<Countdown endAt={p.endAt} initial={p.countdown} />
        </span>
      </div>
      <a href={`/product/${p.id}`} id={nameId}>
        {p.name || "Unnamed Product"}
      </a>
      {p.hostName ? p.hostHref ? <a href={p.hostHref}>{`by ${p.hostName}`}</a> : <span>{`by ${p.hostName}`}</span> : null}
      <b>{p.price}</b>
      <p>
        <b>{derivedRating(p.likeCount).toFixed(1)}</b>
        {` (${derivedReviewCount(p.viewCount, p.likeCount)} reviews)`}
      </p>
      {p.inStock ? (
        <button form={CART_ADD_FORM_ID} name="productId" value={p.id} id={cartId} aria-labelledby={`${cartId} ${nameId}`}>
          Add to Cart
        </button>
      ) : (
        <button type="button" disabled id={cartId} aria-labelledby={`${cartId} ${nameId}`}>
          {OUT_OF_STOCK}
        </button>
      )}
    </li>
  );
}

/**
 * A host's product as their profile and profile shop list it: the price already in the page's currency; `inStock`
 * false shows a disabled 'Out of Stock' instead of Buy Now.
 */
export type ProductTileData = { id: string; name: string; image: string | null; price: string; groupBuyId: string | null; inStock: boolean };

/**
 * A host's products on their profile (`detailsLabel` "Details") and its shop page ("View Details", `wideActions`:
 * both links share the row and wrap when narrow). Plain markup styled by place (app.css, "product tiles"): its
 * links are plain `<a>` of a CLIENT_LINKS list, which the page's one click handler navigates on the client.
 */
export function ProductTiles({
  products,
  detailsLabel,
  wideActions = false,
}: {
  products: readonly ProductTileData[];
  detailsLabel: string;
  wideActions?: boolean;
}) {
  return (
    <ul className={wideActions ? "product-tiles wide-actions" : "product-tiles"} {...CLIENT_LINKS}>
      {products.map((p) => (
        <li key={p.id} data-product-card={p.id}>
          <a href={`/product/${p.id}`} tabIndex={-1} aria-hidden="true">
            {p.image ? <img src={p.image} alt="" loading="lazy" /> : <span />}
          </a>
          <p>{p.name || "Unnamed Product"}</p>
          <p>{p.price}</p>
          <div>
            {p.groupBuyId ? (
              <a href={`/group-buy-product-selection/${p.groupBuyId}`}>Group Buy</a>
            ) : p.inStock ? (
              <a href={`/buy-now/${p.id}`}>Buy Now</a>
            ) : (
              <button type="button" disabled>
                {OUT_OF_STOCK}
              </button>
            )}
            <a href={`/product/${p.id}`}>{detailsLabel}</a>
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
export function optionList(options: () => readonly (readonly [value: string, label: string])[]): (value: string) => OptionsHtml {
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
    const html = { __html: parts.map((part, i) => (i === index ? part.replace("<option ", "<option selected ") : part)).join("") };
    byValue.set(value, html);
    return html;
  };
}

/** Every supported currency, 'MYR · Malaysian Ringgit'. */
export const currencyOptions = optionList(() => CURRENCIES.map((c) => [c.code, `${c.code} · ${c.name}`]));

/** 'All Countries' (empty value) and the shipping countries. */
export const shipToOptions = optionList(() => [["", "All Countries"], ...SHIPPING_COUNTRIES.map((c) => [c.code, c.name] as const)]);

/** The look of a text field or select (app.css: one class, since /shop's filter bar repeats it four times). */
export const fieldClass = "field";

/**
 * A select that submits its GET form as soon as it changes (the form still has a button for no-JS use; on a page
 * sent without hydration /page.js submits it). Its options come as markup from an `optionList`, the chosen one
 * marked; a new value (the page's next filters) mounts a new select.
 */
export function AutoSubmitSelect({ label, name, value, options }: { label: string; name: string; value: string; options: OptionsHtml }) {
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
      <button type="button" data-step="-1" className={button} onClick={() => onChange(clamp(value - 1))} disabled={value <= 1} aria-label="Decrease quantity">
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
      <button type="button" data-step="1" className={button} onClick={() => onChange(clamp(value + 1))} disabled={value >= max} aria-label="Increase quantity">
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
            <label
              key={s.id}
              className={choiceClass}
            >
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
