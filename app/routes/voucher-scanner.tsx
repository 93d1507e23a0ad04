import { useCallback, useEffect, useRef, useState } from "react";
import { data, Form, useActionData, useNavigate, useNavigation } from "react-router";
import { Link } from "~/components/link";
import { Badge, Button, Card, DateText, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getVoucherByCode, listHostActiveCodes, redeemVoucher } from "~/db/queries/vouchers.server";
import { formatCents } from "~/domain/money";
import {
  CAMERA_ERROR_TITLE,
  CAMERA_FALLBACK_MS,
  cameraErrorMessage,
  effectiveVoucherStatus,
  normalizeVoucherCode,
  SCANNER_MESSAGES,
  SCANNER_RESET_MS,
  VOUCHER_CODE_PATTERN,
} from "~/domain/vouchers";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/voucher-scanner";

export const meta: Route.MetaFunction = () => pageMeta("Voucher Scanner");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const db = getDb(getEnv(context));
  const shortcuts = await listHostActiveCodes(db, user.id);
  const raw = new URL(request.url).searchParams.get("code");
  if (raw === null) return { code: "", shortcuts, result: null };
  const code = normalizeVoucherCode(raw);
  if (!code) return { code, shortcuts, result: { kind: "error" as const, message: SCANNER_MESSAGES.emptyCode } };
  const voucher = VOUCHER_CODE_PATTERN.test(code) ? await getVoucherByCode(db, code) : undefined;
  // A host looks up only vouchers of their own shop; anything else is not found.
  if (!voucher || voucher.hostId !== user.id) return { code, shortcuts, result: { kind: "missing" as const } };
  return {
    code,
    shortcuts,
    result: {
      kind: "found" as const,
      status: effectiveVoucherStatus(voucher.status, voucher.expiresAt),
      value: formatCents(voucher.valueCents, voucher.currency),
      productName: voucher.productName,
      customerName: voucher.buyerName,
      orderNumber: voucher.orderNumber,
      expiresAt: voucher.expiresAt,
      redeemedAt: voucher.redeemedAt,
    },
  };
}

/**
 * The camera is granted only to a document loaded at this path (its Permissions-Policy; every other page says
 * camera=()). Arriving by a client-side navigation (a link, or sign-in's redirect) keeps the previous page's
 * document, so the scanner is loaded as a page of its own instead.
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  if (new URL(document.URL).pathname !== new URL(request.url).pathname) {
    window.location.assign(request.url);
    return new Promise<never>(() => {});
  }
  return serverLoader();
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const form = await request.formData();
  const code = normalizeVoucherCode(form.get("code"));
  if (!code)
    return data(
      { ok: false as const, code, title: SCANNER_MESSAGES.emptyCode, message: SCANNER_MESSAGES.emptyCode },
      { status: 400 },
    );
  if (!VOUCHER_CODE_PATTERN.test(code)) {
    return data(
      { ok: false as const, code, title: SCANNER_MESSAGES.notFoundTitle, message: SCANNER_MESSAGES.notFound },
      { status: 404 },
    );
  }
  const result = await redeemVoucher(getDb(getEnv(context)), { code, hostId: user.id });
  switch (result.kind) {
    case "redeemed":
      return { ok: true as const, code, title: SCANNER_MESSAGES.redeemed, message: SCANNER_MESSAGES.redeemed };
    case "already":
      return data(
        { ok: false as const, code, title: SCANNER_MESSAGES.alreadyRedeemed, message: SCANNER_MESSAGES.onceOnly },
        { status: 409 },
      );
    case "expired":
      return data(
        { ok: false as const, code, title: SCANNER_MESSAGES.expired, message: SCANNER_MESSAGES.expiredDetail },
        { status: 410 },
      );
    case "missing":
      return data(
        { ok: false as const, code, title: SCANNER_MESSAGES.notFoundTitle, message: SCANNER_MESSAGES.notFound },
        { status: 404 },
      );
  }
}

// --- camera -----------------------------------------------------------------------------------------------------

type Detected = { rawValue: string };
type BarcodeDetectorLike = { detect(source: CanvasImageSource): Promise<Detected[]> };
type BarcodeDetectorClass = {
  new (options?: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
};
type FrameDecoder = (video: HTMLVideoElement) => Promise<string | null>;

/** The browser's BarcodeDetector when it knows QR codes, else jsQR over canvas pixels (downloaded only now). */
async function makeDecoder(): Promise<FrameDecoder> {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector) {
    try {
      const formats = (await Detector.getSupportedFormats?.()) ?? ["qr_code"];
      if (formats.includes("qr_code")) {
        const detector = new Detector({ formats: ["qr_code"] });
        return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
      }
    } catch {
      // fall back to jsQR
    }
  }
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    const { videoWidth: w, videoHeight: h } = video;
    if (!ctx || !w || !h) return null;
    const scale = Math.min(1, 640 / Math.max(w, h));
    canvas.width = Math.round(w * scale);
    canvas.height = Math.round(h * scale);
    ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(image.data, image.width, image.height, { inversionAttempts: "attemptBoth" })?.data ?? null;
  };
}

function CameraScanner({
  onCode,
  onFallback,
}: {
  onCode: (code: string) => void;
  onFallback: (message: string) => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const frameRef = useRef<number | undefined>(undefined);
  const fallbackRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [state, setState] = useState<"idle" | "starting" | "scanning" | "error">("idle");
  const [error, setError] = useState<string | null>(null);

  const stop = useCallback(() => {
    if (frameRef.current !== undefined) cancelAnimationFrame(frameRef.current);
    frameRef.current = undefined;
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
  }, []);

  useEffect(
    () => () => {
      stop();
      clearTimeout(fallbackRef.current);
    },
    [stop],
  );

  function fail(message: string) {
    stop();
    setError(message);
    setState("error");
    clearTimeout(fallbackRef.current);
    // With no camera, the page moves on to manual entry by itself.
    fallbackRef.current = setTimeout(() => onFallback(message), CAMERA_FALLBACK_MS);
  }

  async function start() {
    clearTimeout(fallbackRef.current);
    setError(null);
    setState("starting");
    if (!navigator.mediaDevices?.getUserMedia) {
      fail(cameraErrorMessage(undefined));
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" } },
        audio: false,
      });
      streamRef.current = stream;
      const video = videoRef.current;
      if (!video) throw new Error("video element missing");
      video.srcObject = stream;
      await video.play();
      setState("scanning");
      const decode = await makeDecoder();
      let busy = false;
      let last = 0;
      const tick = (time: number) => {
        if (!streamRef.current) return;
        frameRef.current = requestAnimationFrame(tick);
        if (busy || time - last < 150 || video.readyState < 2) return;
        busy = true;
        last = time;
        decode(video)
          .then((text) => {
            const code = normalizeVoucherCode(text);
            if (code && streamRef.current) {
              stop();
              setState("idle");
              onCode(code);
            }
          })
          .catch(() => undefined)
          .finally(() => {
            busy = false;
          });
      };
      frameRef.current = requestAnimationFrame(tick);
    } catch (e) {
      fail(cameraErrorMessage(e));
    }
  }

  function stopCamera() {
    stop();
    setState("idle");
  }

  const live = state === "scanning" || state === "starting";
  return (
    <div>
      <div className="relative mx-auto aspect-square w-full max-w-sm overflow-hidden rounded-xl bg-gray-900">
        <video ref={videoRef} muted playsInline className={`h-full w-full object-cover ${live ? "" : "invisible"}`} />
        <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center gap-3 p-6">
          <div className="aspect-square w-3/4 rounded-2xl border-4 border-white/80 shadow-[0_0_0_9999px_rgba(0,0,0,0.35)]" />
          <p className="rounded-full bg-black/60 px-3 py-1 text-center text-xs font-medium text-white">
            Position QR code within the frame
          </p>
        </div>
      </div>

      {state === "error" && error ? (
        <div role="alert" className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-4">
          <p className="font-semibold text-amber-900">{CAMERA_ERROR_TITLE}</p>
          <p className="mt-1 text-sm text-amber-800">{error}</p>
          <p className="mt-1 text-xs text-amber-700">Switching to manual entry…</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button size="sm" onClick={start}>
              Try Again
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => {
                clearTimeout(fallbackRef.current);
                onFallback(error);
              }}
            >
              Use Manual Entry
            </Button>
          </div>
        </div>
      ) : null}

      <div className="mt-4 flex justify-center gap-2">
        {live ? (
          <Button variant="secondary" onClick={stopCamera}>
            Stop Camera
          </Button>
        ) : (
          <Button onClick={start} disabled={state === "error"}>
            Start Camera
          </Button>
        )}
      </div>
    </div>
  );
}

// --- page ---------------------------------------------------------------------------------------------------------

const inputClass =
  "block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 font-mono text-sm uppercase shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none";

export default function VoucherScanner({ loaderData }: Route.ComponentProps) {
  const { code, result, shortcuts } = loaderData;
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [mode, setMode] = useState<"camera" | "manual">("manual");
  const [cameraIssue, setCameraIssue] = useState<string | null>(null);
  const [emptyError, setEmptyError] = useState(false);
  // The notice of a successful redeem, until the viewer moves on (or the scanner resets).
  const [noticeDismissed, setNoticeDismissed] = useState<typeof actionData>(undefined);
  const notice = actionData?.ok && noticeDismissed !== actionData ? actionData.message : null;
  const dismissNotice = () => setNoticeDismissed(actionData);
  const redeeming = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";

  // A successful redeem shows its message, then the scanner resets after 1 s for the next buyer.
  useEffect(() => {
    if (!actionData?.ok) return;
    const timer = setTimeout(
      () => navigate("/voucher-scanner", { replace: true, preventScrollReset: true }),
      SCANNER_RESET_MS,
    );
    return () => clearTimeout(timer);
  }, [actionData, navigate]);

  const justRedeemed = actionData?.ok === true && actionData.code === code;
  const redeemError = actionData && !actionData.ok ? actionData : null;

  function lookup(next: string) {
    dismissNotice();
    setEmptyError(false);
    navigate(`/voucher-scanner?code=${encodeURIComponent(next)}`);
  }

  return (
    <Page
      title="Voucher Scanner"
      subtitle="Scan or enter a customer's voucher code, check it, then redeem it."
      width="narrow"
      back={{ to: "/dashboard", label: "Back to Dashboard" }}
    >
      <div className="mb-4 grid grid-cols-2 gap-1 rounded-xl bg-gray-100 p-1" role="group" aria-label="Scanner mode">
        {(
          [
            ["camera", "Camera Scan"],
            ["manual", "Manual Entry"],
          ] as const
        ).map(([value, label]) => (
          <button
            key={value}
            type="button"
            aria-pressed={mode === value}
            onClick={() => setMode(value)}
            className={`rounded-lg px-3 py-2 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-brand-500 ${
              mode === value ? "bg-white text-gray-900 shadow-sm" : "text-gray-600 hover:text-gray-900"
            }`}
          >
            {label}
          </button>
        ))}
      </div>

      {notice ? (
        <p
          role="status"
          className="mb-4 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm font-semibold text-green-800"
        >
          {notice}
        </p>
      ) : null}

      <Card>
        {mode === "camera" ? (
          <>
            <h2 className="mb-3 font-semibold text-gray-900">Camera Scan</h2>
            <CameraScanner
              onCode={lookup}
              onFallback={(message) => {
                setCameraIssue(message);
                setMode("manual");
              }}
            />
          </>
        ) : (
          <>
            <h2 className="font-semibold text-gray-900">Manual Entry</h2>
            {cameraIssue ? (
              <p className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-800">
                {CAMERA_ERROR_TITLE}: {cameraIssue}
              </p>
            ) : null}
            <Form
              method="get"
              className="mt-3 flex gap-2"
              onSubmit={(event) => {
                const input = event.currentTarget.elements.namedItem("code") as HTMLInputElement | null;
                const value = normalizeVoucherCode(input?.value);
                dismissNotice();
                if (!value) {
                  event.preventDefault();
                  setEmptyError(true);
                  return;
                }
                setEmptyError(false);
                if (input) input.value = value;
              }}
            >
              <label htmlFor="code" className="sr-only">
                Voucher code
              </label>
              <input
                key={code}
                id="code"
                name="code"
                defaultValue={code}
                placeholder="VCH-XXXXXXXX"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={64}
                onInput={(event) => {
                  // Codes are uppercase; keep the caret where it was.
                  const input = event.currentTarget;
                  const { selectionStart, selectionEnd } = input;
                  const upper = input.value.toUpperCase();
                  if (upper !== input.value) {
                    input.value = upper;
                    input.setSelectionRange(selectionStart, selectionEnd);
                  }
                }}
                className={inputClass}
              />
              <button
                type="submit"
                className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
              >
                Lookup
              </button>
            </Form>
            {shortcuts.length > 0 ? (
              <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-gray-500">
                <span>Recent active vouchers:</span>
                {shortcuts.map((shortcut) => (
                  <Link
                    key={shortcut}
                    to={`/voucher-scanner?code=${encodeURIComponent(shortcut)}`}
                    onClick={() => dismissNotice()}
                    className="rounded-full border border-gray-200 px-2 py-0.5 font-mono text-gray-700 hover:bg-gray-50"
                  >
                    {shortcut}
                  </Link>
                ))}
              </div>
            ) : null}
          </>
        )}
      </Card>

      <div className="mt-6" aria-live="polite">
        {emptyError ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
            {SCANNER_MESSAGES.emptyCode}
          </p>
        ) : redeemError ? (
          <div role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
            <p className="font-semibold">{redeemError.title}</p>
            {redeemError.message !== redeemError.title ? <p className="mt-1">{redeemError.message}</p> : null}
          </div>
        ) : null}
        {emptyError || justRedeemed ? null : result?.kind === "error" ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
            {result.message}
          </p>
        ) : result?.kind === "missing" ? (
          <Card>
            <p className="font-semibold text-gray-900">{SCANNER_MESSAGES.notFoundTitle}</p>
            <p className="mt-1 text-sm text-gray-600">{SCANNER_MESSAGES.notFound}</p>
            <p className="mt-1 font-mono text-sm text-gray-600">{code}</p>
            <Link
              to="/voucher-scanner"
              className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:underline"
            >
              Try Again
            </Link>
          </Card>
        ) : result?.kind === "found" ? (
          <Card>
            <div className="flex items-center justify-between gap-2">
              <p className="text-lg font-semibold text-gray-900">
                {result.status === "active"
                  ? SCANNER_MESSAGES.valid
                  : result.status === "redeemed"
                    ? SCANNER_MESSAGES.alreadyRedeemed
                    : SCANNER_MESSAGES.expired}
              </p>
              <Badge tone={result.status === "active" ? "green" : result.status === "redeemed" ? "blue" : "red"}>
                {code}
              </Badge>
            </div>
            {result.status === "redeemed" ? (
              <p className="mt-1 text-sm text-gray-600">{SCANNER_MESSAGES.onceOnly}</p>
            ) : null}
            {result.status === "expired" ? (
              <p className="mt-1 text-sm text-gray-600">{SCANNER_MESSAGES.expiredDetail}</p>
            ) : null}
            <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-gray-500">Value</dt>
                <dd className="font-medium">{result.value}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Product</dt>
                <dd className="font-medium">{result.productName}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Customer</dt>
                <dd className="font-medium">{result.customerName ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Order</dt>
                <dd className="font-medium">{result.orderNumber}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Expires</dt>
                <dd className="font-medium">
                  <DateText value={result.expiresAt} />
                </dd>
              </div>
              {result.redeemedAt ? (
                <div>
                  <dt className="text-gray-500">Redeemed</dt>
                  <dd className="font-medium">
                    <DateText value={result.redeemedAt} withTime />
                  </dd>
                </div>
              ) : null}
            </dl>
            <div className="mt-4 flex flex-wrap gap-2">
              {result.status === "active" ? (
                <Form method="post" action={`/voucher-scanner?code=${encodeURIComponent(code)}`}>
                  <input type="hidden" name="code" value={code} />
                  <Button type="submit" disabled={redeeming}>
                    {redeeming ? "Redeeming…" : "Redeem Voucher"}
                  </Button>
                </Form>
              ) : null}
              <Link
                to="/voucher-scanner"
                onClick={() => dismissNotice()}
                className="inline-flex items-center rounded-lg border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-800 shadow-sm hover:bg-gray-50"
              >
                Scan Another
              </Link>
            </div>
          </Card>
        ) : null}
      </div>

      <Card className="mt-6">
        <h2 className="font-semibold text-gray-900">How to Use</h2>
        <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm text-gray-700">
          <li>Choose Camera Scan and press Start Camera, or switch to Manual Entry.</li>
          <li>Point the camera at the customer's voucher QR code, or type the code printed under it (VCH-…).</li>
          <li>Check the result: only a Valid Voucher can be redeemed.</li>
          <li>Press Redeem Voucher. Each code can only be redeemed once.</li>
        </ol>
      </Card>
    </Page>
  );
}
