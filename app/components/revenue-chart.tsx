import { formatCents } from "~/domain/money";

/** A daily revenue bar chart drawn as SVG on the server (no script needed). */
export function RevenueChart({ days, currency }: { days: { day: string; cents: number }[]; currency: string }) {
  const width = 720;
  const height = 180;
  const pad = 24;
  const max = Math.max(1, ...days.map((d) => d.cents));
  const bar = (width - pad * 2) / Math.max(1, days.length);
  const total = days.reduce((s, d) => s + d.cents, 0);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Daily revenue from ${days[0]?.day ?? ""} to ${days.at(-1)?.day ?? ""}: ${formatCents(total, currency)} in total`}
        className="h-44 w-full"
      >
        <line x1={pad} y1={height - pad} x2={width - pad} y2={height - pad} stroke="#d1d5db" />
        {days.map((d, i) => {
          const h = d.cents > 0 ? Math.max(2, ((height - pad * 2) * d.cents) / max) : 0;
          return (
            <rect
              key={d.day}
              x={pad + i * bar + bar * 0.15}
              y={height - pad - h}
              width={Math.max(1, bar * 0.7)}
              height={h}
              rx={2}
              className={d.cents < 0 ? "fill-red-400" : "fill-brand-500"}
            >
              <title>{`${d.day}: ${formatCents(d.cents, currency)}`}</title>
            </rect>
          );
        })}
        <text x={pad} y={height - 6} fontSize="11" fill="#6b7280">
          {days[0]?.day}
        </text>
        <text x={width - pad} y={height - 6} fontSize="11" fill="#6b7280" textAnchor="end">
          {days.at(-1)?.day}
        </text>
        <text x={pad} y={14} fontSize="11" fill="#6b7280">
          {formatCents(max, currency)}
        </text>
      </svg>
      <figcaption className="sr-only">Daily revenue</figcaption>
    </figure>
  );
}
