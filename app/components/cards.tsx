import type { ReactNode } from "react";
import { ImageBox } from "~/components/image-box";
import { Link } from "~/components/link";
import { formatCents } from "~/domain/money";

/** "USD 12.00" or "USD 12.00 – USD 30.00" from a product's size price range, else its base price. */
export function priceText(p: {
  priceMinCents: number | null;
  priceMaxCents?: number | null;
  basePriceCents: number;
  currency: string;
}): string {
  const min = p.priceMinCents ?? p.basePriceCents;
  const max = p.priceMaxCents ?? min;
  return max > min ? `${formatCents(min, p.currency)} – ${formatCents(max, p.currency)}` : formatCents(min, p.currency);
}

export type ProductCardData = {
  id: string;
  name: string;
  hostName: string | null;
  image: string | null;
  priceMinCents: number | null;
  priceMaxCents: number | null;
  basePriceCents: number;
  currency: string;
};

/** A grid of product cards; each card links to the product page (or to `hrefFor`). */
export function ProductGrid({
  products,
  hrefFor = (p) => `/product/${p.id}`,
  footer,
}: {
  products: ProductCardData[];
  hrefFor?: (p: ProductCardData) => string;
  footer?: (p: ProductCardData) => ReactNode;
}) {
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {products.map((p) => (
        <li key={p.id} className="flex flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm">
          <Link
            to={hrefFor(p)}
            className="group flex flex-1 flex-col focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            <ImageBox src={p.image} alt={p.name} />
            <div className="flex flex-1 flex-col p-3">
              <p className="line-clamp-2 text-sm font-semibold text-gray-900 group-hover:underline">{p.name}</p>
              {p.hostName ? <p className="mt-0.5 truncate text-xs text-gray-500">by {p.hostName}</p> : null}
              <p className="mt-auto pt-2 text-sm font-bold text-brand-700">{priceText(p)}</p>
            </div>
          </Link>
          {footer ? <div className="border-t border-gray-100 p-3">{footer(p)}</div> : null}
        </li>
      ))}
    </ul>
  );
}

export type GameCardData = {
  id: string;
  hostId: string;
  hostName: string | null;
  question: string;
  imageUrl: string | null;
  options: string[];
  entryFeeCents: number;
  currency: string;
  likesCount: number;
  commentsCount: number;
  sharesCount: number;
};

/** A Guess & Win game card: question, first options and entry fee; links to the game page. */
export function GameCard({ game }: { game: GameCardData }) {
  const shown = game.options.slice(0, 4);
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm">
      {game.imageUrl ? (
        <img src={game.imageUrl} alt="" loading="lazy" className="aspect-video w-full object-cover" />
      ) : null}
      <div className="flex flex-1 flex-col p-4">
        {game.hostName ? (
          <Link to={`/profile/${game.hostId}`} className="text-xs font-medium text-brand-700 hover:underline">
            {game.hostName}
          </Link>
        ) : null}
        <h3 className="mt-1 font-semibold text-gray-900">{game.question}</h3>
        {shown.length > 0 ? (
          <ul className="mt-3 grid grid-cols-2 gap-2">
            {shown.map((option) => (
              <li key={option} className="truncate rounded-lg border border-gray-200 px-2 py-1.5 text-sm text-gray-700">
                {option}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-sm text-gray-500">No options available</p>
        )}
        {game.options.length > shown.length ? (
          <p className="mt-1 text-xs text-gray-500">+{game.options.length - shown.length} more options</p>
        ) : null}
        <div className="mt-4 flex items-center justify-between gap-2 text-sm">
          <span className="text-gray-600">
            Entry from{" "}
            <span className="font-semibold text-gray-900">{formatCents(game.entryFeeCents, game.currency)}</span>
          </span>
          <Link to={`/view-game/${game.id}`} className="font-semibold text-brand-700 hover:underline">
            View game
          </Link>
        </div>
        <p className="mt-2 text-xs text-gray-500">
          {game.likesCount} likes · {game.commentsCount} comments · {game.sharesCount} shares
        </p>
      </div>
    </article>
  );
}

/** A dashboard tile: a link with a title, a one-line description and an optional figure. */
export function Tile({
  to,
  title,
  description,
  figure,
}: {
  to: string;
  title: string;
  description: string;
  figure?: ReactNode;
}) {
  return (
    <Link
      to={to}
      className="flex h-full flex-col rounded-xl border border-gray-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      <span className="flex items-center justify-between gap-2">
        <span className="font-semibold text-gray-900">{title}</span>
        {figure !== undefined ? <span className="text-2xl font-bold text-brand-700">{figure}</span> : null}
      </span>
      <span className="mt-1 text-sm text-gray-600">{description}</span>
    </Link>
  );
}

/** A small table wrapper that scrolls sideways on narrow screens. */
export function Table({ head, children }: { head: string[]; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border border-gray-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-gray-200 text-sm">
        <thead className="bg-gray-50">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-4 py-2 text-left font-semibold whitespace-nowrap text-gray-700">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">{children}</tbody>
      </table>
    </div>
  );
}
