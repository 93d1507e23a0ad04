import { useEffect, useRef, useState, type ReactNode } from "react";
import { ErrorPage, errorTitle } from "~/components/error-page";
import { Button, Card, DateText, LinkButton, Page, pageMeta } from "~/components/page";
import { VoucherStatusBadge } from "~/components/voucher-status";
import { getDb } from "~/db/client.server";
import { getVoucherByCode } from "~/db/queries/vouchers.server";
import { formatCents } from "~/domain/money";
import { COPY_CONFIRMATION_MS, type VoucherCardStatus, voucherCardStatus } from "~/domain/vouchers";
import { idParam, notFound, requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { qrSvg } from "~/lib/qr.server";
import type { Route } from "./+types/voucher";

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  pageMeta(loaderData ? `Voucher ${loaderData.voucher.code}` : errorTitle(error, "Voucher Not Found"));

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const voucher = await getVoucherByCode(getDb(getEnv(context)), idParam(params.code));
  // Only the buyer and the host may see a voucher; to anyone else it does not exist.
  if (!voucher || (voucher.buyerId !== user.id && voucher.hostId !== user.id)) notFound();
  const isHost = voucher.hostId === user.id;
  return {
    isHost,
    qrSvg: await qrSvg(voucher.code),
    voucher: {
      code: voucher.code,
      status: voucherCardStatus(voucher.status, voucher.expiresAt),
      value: formatCents(voucher.valueCents, voucher.currency),
      productName: voucher.productName,
      hostName: voucher.hostName,
      // The buyer's details ('Customer details') are the host's to see; the buyer knows who they are.
      buyerName: isHost ? voucher.buyerName : null,
      buyerEmail: isHost ? voucher.buyerEmail : null,
      orderNumber: voucher.orderNumber,
      purchasedAt: voucher.createdAt,
      expiresAt: voucher.expiresAt,
      redeemedAt: voucher.redeemedAt,
    },
  };
}

/** Copies text to the clipboard (with a fallback for browsers without the async clipboard API). */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy path
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** A label that reads `confirmation` for 2 s after `flash()` is called. */
function useFlash(): [string | null, (text: string) => void] {
  const [text, setText] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return [
    text,
    (next: string) => {
      setText(next);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setText(null), COPY_CONFIRMATION_MS);
    },
  ];
}

/** Renders the QR SVG to a PNG in the browser (canvas) and downloads it as {code}.png. */
async function downloadPng(svg: SVGSVGElement, code: string): Promise<void> {
  const size = 600;
  const source = new XMLSerializer().serializeToString(svg);
  const url = URL.createObjectURL(new Blob([source], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const image = new Image();
    image.width = size;
    image.height = size;
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error("could not render the QR code"));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = size;
    canvas.height = size;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("canvas unavailable");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, size, size);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(image, 0, 0, size, size);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) throw new Error("could not encode the PNG");
    const link = document.createElement("a");
    const pngUrl = URL.createObjectURL(blob);
    link.href = pngUrl;
    link.download = `${code}.png`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(pngUrl), 1000);
  } finally {
    URL.revokeObjectURL(url);
  }
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-gray-500">{label}</dt>
      <dd className="mt-0.5 font-medium break-words text-gray-900">{children}</dd>
    </div>
  );
}

/** The status's line under the value: its date, in the same word as the badge (voucherCardStatus). */
function StatusLine({
  status,
  redeemedAt,
  expiresAt,
}: {
  status: VoucherCardStatus;
  redeemedAt: Date | string | null;
  expiresAt: Date | string;
}) {
  if (status === "used")
    return (
      <p className="text-sm text-blue-800">
        Used on <DateText value={redeemedAt} withTime />
      </p>
    );
  if (status === "expired")
    return (
      <p className="text-sm text-red-700">
        Expired on <DateText value={expiresAt} />
      </p>
    );
  if (status === "refunded")
    return <p className="text-sm text-gray-700">Refunded: this voucher can no longer be redeemed</p>;
  return (
    <p className="text-sm text-green-800">
      Valid until <DateText value={expiresAt} />
    </p>
  );
}

export default function Voucher({ loaderData }: Route.ComponentProps) {
  const { voucher: v, isHost, qrSvg: svg } = loaderData;
  const qrRef = useRef<HTMLDivElement>(null);
  const [copied, flashCopied] = useFlash();
  const [shared, flashShared] = useFlash();
  const [problem, setProblem] = useState<string | null>(null);

  async function onCopy() {
    flashCopied((await copyText(v.code)) ? "Copied!" : "Copy failed");
  }

  async function onDownload() {
    setProblem(null);
    const element = qrRef.current?.querySelector("svg");
    if (!element) return;
    try {
      await downloadPng(element, v.code);
    } catch {
      setProblem("Could not create the image. Please take a screenshot instead.");
    }
  }

  async function onShare() {
    const url = window.location.href;
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: `Voucher ${v.code}`, text: `${v.productName} voucher ${v.code}`, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    flashShared((await copyText(url)) ? "Link copied!" : "Copy failed");
  }

  return (
    <Page
      title="Voucher Details"
      subtitle={v.productName}
      width="narrow"
      // The host returns to voucher management; a buyer (who has no such screen of their own) to My Orders.
      back={
        isHost
          ? { to: "/voucher-management", label: "Back to Vouchers" }
          : { to: "/my-orders", label: "Back to My Orders" }
      }
      actions={<VoucherStatusBadge status={v.status} />}
    >
      <Card>
        <div className="flex flex-col items-center gap-5 sm:flex-row sm:items-start">
          <div
            ref={qrRef}
            role="img"
            aria-label={`QR code for voucher ${v.code}`}
            data-qr
            className={`w-56 shrink-0 rounded-lg border border-gray-200 bg-white p-1 [&>svg]:block [&>svg]:h-auto [&>svg]:w-full ${v.status === "valid" ? "" : "opacity-50"}`}
            // The SVG is generated on the server by the qrcode library from the voucher code.
            dangerouslySetInnerHTML={{ __html: svg }}
          />
          <div className="min-w-0 flex-1 text-center sm:text-left">
            <p className="text-sm text-gray-500">Voucher code</p>
            <p className="mt-1 font-mono text-2xl font-bold tracking-wider break-all text-gray-900">{v.code}</p>
            <div className="mt-2 flex flex-wrap justify-center gap-2 sm:justify-start">
              <Button variant="secondary" size="sm" onClick={onCopy} aria-live="polite">
                {copied ?? "Copy Code"}
              </Button>
            </div>
            <p className="mt-3 text-2xl font-bold text-gray-900">{v.value}</p>
            <div className="mt-1">
              <StatusLine status={v.status} redeemedAt={v.redeemedAt} expiresAt={v.expiresAt} />
            </div>
          </div>
        </div>
        <div className="mt-5 flex flex-wrap gap-2 border-t border-gray-100 pt-4">
          <Button variant="secondary" onClick={onDownload}>
            Download
          </Button>
          <Button variant="secondary" onClick={onShare} aria-live="polite">
            {shared ?? "Share"}
          </Button>
          {isHost && v.status === "valid" ? (
            <LinkButton to={`/voucher-scanner?code=${encodeURIComponent(v.code)}`}>Redeem via scanner</LinkButton>
          ) : null}
        </div>
        {problem ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {problem}
          </p>
        ) : null}
      </Card>

      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        <Card>
          <h2 className="font-semibold text-gray-900">Store</h2>
          <dl className="mt-3 grid gap-3 text-sm">
            <Field label="Store name">{v.hostName ?? "—"}</Field>
          </dl>
        </Card>
        {isHost ? (
          <Card>
            <h2 className="font-semibold text-gray-900">Customer details</h2>
            <dl className="mt-3 grid gap-3 text-sm">
              <Field label="Name">{v.buyerName ?? "—"}</Field>
              <Field label="E-mail">{v.buyerEmail ?? "—"}</Field>
            </dl>
          </Card>
        ) : null}
        <Card className={isHost ? "sm:col-span-2" : ""}>
          <h2 className="font-semibold text-gray-900">Purchase information</h2>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
            <Field label="Product">{v.productName}</Field>
            <Field label="Value">{v.value}</Field>
            <Field label="Purchase date">
              <DateText value={v.purchasedAt} />
            </Field>
            <Field label="Expiry date">
              <DateText value={v.expiresAt} />
            </Field>
            <Field label="Order number">{v.orderNumber}</Field>
            <Field label="Status">
              <VoucherStatusBadge status={v.status} />
            </Field>
          </dl>
        </Card>
      </div>

      <Card className="mt-6">
        <h2 className="font-semibold text-gray-900">Terms</h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-gray-700">
          <li>
            Valid until <DateText value={v.expiresAt} />; it cannot be used after that date.
          </li>
          <li>Each code can only be redeemed once.</li>
          <li>Show this QR code or the voucher code at {v.hostName ?? "the store"} to redeem it.</li>
          <li>This voucher is worth {v.value} and cannot be exchanged for cash.</li>
          <li>Keep your code private: whoever presents it first can use it.</li>
        </ul>
      </Card>
    </Page>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage
      error={error}
      notFound={{
        title: "Voucher Not Found",
        message: "This voucher doesn't exist or isn't yours.",
        action: { to: "/my-orders", label: "Back to My Orders" },
      }}
    />
  );
}
