import { Form, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Badge, Button, Card, DateText } from "~/components/page";
import { miniPrizeLabel } from "~/domain/pool";

export type MiniPrizeDelivery = {
  id: string;
  poolId: string;
  name: string;
  amountText: string;
  entryNumber: number;
  winnerName: string;
  deliveredAt: string | null;
};

/** The host's mini prize winners: each gift still to deliver with a Mark delivered button, then delivered ones. */
export function MiniPrizeDeliveries({ winners, error }: { winners: MiniPrizeDelivery[]; error?: string | null }) {
  const navigation = useNavigation();
  const busyId = navigation.state !== "idle" ? navigation.formData?.get("miniPrizeWinnerId") : null;
  if (winners.length === 0 && !error) return null;
  return (
    <Card className="mt-6">
      <h2 className="font-semibold text-gray-900">Mini Prize Winners</h2>
      <p className="mt-1 text-sm text-gray-600">
        Mini prizes are your own gifts: deliver each one and mark it delivered.
      </p>
      {error ? (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <ul className="mt-3 divide-y divide-gray-100 text-sm">
        {winners.map((w) => (
          <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="min-w-0 flex-1">
              <span className="block font-medium">{w.winnerName}</span>
              <span className="block text-xs text-gray-500">
                {`${miniPrizeLabel(w)} · entry #${w.entryNumber} · `}
                <Link to={`/winner-selection/${w.poolId}`} className="underline">
                  draw
                </Link>
              </span>
            </span>
            {w.deliveredAt ? (
              <Badge tone="green">
                Delivered <DateText value={w.deliveredAt} />
              </Badge>
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="mark-delivered" />
                <input type="hidden" name="miniPrizeWinnerId" value={w.id} />
                <Button
                  type="submit"
                  variant="secondary"
                  disabled={busyId === w.id}
                  aria-label={busyId === w.id ? undefined : `Mark delivered: ${w.name} for ${w.winnerName}`}
                >
                  {busyId === w.id ? "Saving..." : "Mark delivered"}
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
