import { readCookie } from "./cookies.server";

export type FlashToast = { message: string; type: "success" | "error" | "info"; durationMs?: number };

const TOAST_COOKIE = "__Host-toast";

/** Set-Cookie header that carries a toast to the next page the browser shows. */
export function flashToastCookie(toast: FlashToast): string {
  const value = btoa(encodeURIComponent(JSON.stringify(toast)));
  return `${TOAST_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=60`;
}

export function clearToastCookie(): string {
  return `${TOAST_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

export function readFlashToast(request: Request): FlashToast | null {
  const raw = readCookie(request, TOAST_COOKIE);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(decodeURIComponent(atob(raw))) as Partial<FlashToast>;
    if (typeof parsed.message !== "string" || !["success", "error", "info"].includes(parsed.type ?? "")) return null;
    return {
      message: parsed.message.slice(0, 300),
      type: parsed.type as FlashToast["type"],
      durationMs: typeof parsed.durationMs === "number" ? parsed.durationMs : undefined,
    };
  } catch {
    return null;
  }
}
