import { VOUCHER_CARD_LABELS, type VoucherCardStatus } from "~/domain/vouchers";
import { Badge } from "./page";

const TONES = { valid: "green", used: "blue", expired: "red", refunded: "gray" } as const;

/** A voucher's one status word (voucherCardStatus), the same on every card that shows the voucher. */
export function VoucherStatusBadge({ status }: { status: VoucherCardStatus }) {
  return <Badge tone={TONES[status]}>{VOUCHER_CARD_LABELS[status]}</Badge>;
}
