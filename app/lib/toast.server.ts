import { env } from "cloudflare:workers";
import { createHmac, timingSafeEqual } from "node:crypto";
import { readCookie, TOAST_COOKIE } from "./cookies.server";

export type FlashToast = { message: string; type: "success" | "error" | "info"; durationMs?: number };

// The toast cookie is signed with SESSION_SECRET so only this app can put words on its pages. Without the secret
// (a misconfigured deployment) toasts are skipped rather than trusted.
function signature(value: string): string | null {
  const secret = env.SESSION_SECRET;
  if (!secret) {
    console.error("SESSION_SECRET is not set: flash messages are disabled");
    return null;
  }
  return createHmac("sha256", secret).update(value).digest("base64url");
}

/** Set-Cookie header that carries a toast to the next page the browser shows. */
export function flashToastCookie(toast: FlashToast): string {
  const value = btoa(encodeURIComponent(JSON.stringify(toast)));
  const sig = signature(value);
  return `${TOAST_COOKIE}=${sig ? `${value}.${sig}` : ""}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${sig ? 60 : 0}`;
}

export function clearToastCookie(): string {
  return `${TOAST_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

export function readFlashToast(request: Request): FlashToast | null {
  const raw = readCookie(request, TOAST_COOKIE);
  if (!raw) return null;
  const dot = raw.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = raw.slice(0, dot);
  const expected = signature(value);
  const given = Buffer.from(raw.slice(dot + 1));
  if (!expected || given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) return null;
  try {
    const parsed = JSON.parse(decodeURIComponent(atob(value))) as Partial<FlashToast>;
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
