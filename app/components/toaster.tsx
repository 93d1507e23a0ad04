import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useEffectEvent,
  useRef,
  useState,
  type ReactNode,
} from "react";

export type ToastType = "success" | "error" | "info";
export type ToastInput = { message: string; type: ToastType; durationMs?: number };
type ToastItem = ToastInput & { id: number };

/** Toasts close by themselves after 5 seconds (docs/product.md#live-updates-and-limits). */
export const DEFAULT_TOAST_MS = 5000;

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

/** `const toast = useToast(); toast({ message: "Saved", type: "success" })`. */
export function useToast(): (toast: ToastInput) => void {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error("useToast must be used inside <ToastProvider>");
  return toast;
}

/** What an action answers a fetcher with when the outcome is told in a toast. */
export type ToastOutcome = { ok: boolean; message: string };

/**
 * Toasts each fetcher's answer once, when it arrives (a success or an error toast by `ok`); a fetcher's same answer
 * re-rendered later is not toasted again.
 */
export function useFetcherToasts(fetchers: { state: string; data?: ToastOutcome | undefined }[]): void {
  const toast = useToast();
  const shown = useRef(new WeakSet<object>());
  useEffect(() => {
    for (const f of fetchers) {
      if (f.state === "idle" && f.data && !shown.current.has(f.data)) {
        shown.current.add(f.data);
        toast({ message: f.data.message, type: f.data.ok ? "success" : "error" });
      }
    }
  });
}

const flashKey = (t: ToastInput | null | undefined) => (t ? `${t.type}\n${t.message}\n${t.durationMs ?? ""}` : null);

/**
 * Holds the toast stack (top-right). `flashToast` is the one-time toast the root loader read from the flash cookie:
 * it is rendered on the server with the page, and each new one that arrives on a later navigation is added too.
 */
export function ToastProvider({ flashToast, children }: { flashToast?: ToastInput | null; children: ReactNode }) {
  const nextId = useRef(1);
  const [toasts, setToasts] = useState<ToastItem[]>(() => (flashToast ? [{ ...flashToast, id: 0 }] : []));
  const lastFlash = useRef(flashKey(flashToast));

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const toast = useCallback((input: ToastInput) => {
    const id = nextId.current++;
    setToasts((list) => [...list, { ...input, id }]);
  }, []);

  const key = flashKey(flashToast);
  const showFlash = useEffectEvent(() => {
    if (flashToast) toast(flashToast);
  });
  useEffect(() => {
    // Only a new flash (by its content) is shown; the object identity changes on every revalidation.
    if (key === lastFlash.current) return;
    lastFlash.current = key;
    showFlash();
  }, [key]);

  return (
    <ToastContext.Provider value={toast}>
      {children}
      <section aria-label="Notifications" aria-live="polite" aria-relevant="additions" className="toast-region">
        {toasts.map((t) => (
          <Toast key={t.id} toast={t} onClose={() => dismiss(t.id)} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

const styles: Record<ToastType, { box: string; icon: ReactNode }> = {
  success: {
    box: "border-green-200 bg-green-50 text-green-900",
    icon: (
      <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z" />
    ),
  },
  error: {
    box: "border-red-200 bg-red-50 text-red-900",
    icon: <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-.9 4h1.8v5.2H9.1V6Zm0 6.8h1.8v1.8H9.1v-1.8Z" />,
  },
  info: {
    box: "border-blue-200 bg-blue-50 text-blue-900",
    icon: <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-.9 3.4h1.8v1.8H9.1V5.4Zm0 3.4h1.8v5.8H9.1V8.8Z" />,
  },
};

function Toast({ toast, onClose }: { toast: ToastItem; onClose: () => void }) {
  const duration = toast.durationMs ?? DEFAULT_TOAST_MS;
  // The timer starts once per toast; onClose is a fresh closure on every render.
  const close = useEffectEvent(onClose);
  useEffect(() => {
    const timer = setTimeout(() => close(), duration);
    return () => clearTimeout(timer);
  }, [duration]);

  const style = styles[toast.type];
  return (
    <div
      role="status"
      className={`pointer-events-auto flex w-full items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${style.box}`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="mt-0.5 h-5 w-5 shrink-0">
        {style.icon}
      </svg>
      <p className="flex-1 font-medium">{toast.message}</p>
      <button
        type="button"
        onClick={onClose}
        aria-label="Close notification"
        className="-m-1 rounded p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4">
          <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
        </svg>
      </button>
    </div>
  );
}
