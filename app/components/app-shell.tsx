import type { ReactNode } from "react";
import { POOL_ANNOUNCER_ID } from "~/domain/pool-display";
import type { SessionUser } from "~/lib/auth.server";
import { useAppLinks } from "./link";
import { NavBar } from "./nav-bar";
import { ToastProvider, type ToastInput } from "./toaster";

const footerLinks = [
  { to: "/winner-selection", label: "How It Works" },
  { to: "/signup", label: "Join Now" },
  { to: "/explore", label: "Explore" },
  { to: "/terms", label: "Terms" },
  { to: "/privacy", label: "Privacy" },
  { to: "/official-rules", label: "Official Rules" },
  { to: "/responsible-play", label: "Responsible play" },
];

/**
 * The footer is the same on every page, so it is markup written once (React renders a page's elements one by one:
 * 16 fewer on each page). Its links carry Link's mark, so the page's click handler navigates them on the client.
 */
const FOOTER_HTML = {
  __html:
    "<div><p><b>Tribe</b> · Group buys, Guess &amp; Win and a prize pool drawn from a public Bitcoin block.</p>" +
    `<nav aria-label="Footer"><ul>${footerLinks.map((link) => `<li><a href="${link.to}" data-discover="true">${link.label}</a></li>`).join("")}</ul></nav></div>`,
};

/** The frame around every page: toasts, the navigation bar, the page itself and the footer. */
export function AppShell({
  user,
  cartCount = 0,
  flashToast,
  children,
}: {
  user: SessionUser | null;
  /** Units in the cart (the account's or the visitor's). */
  cartCount?: number;
  flashToast?: ToastInput | null;
  children: ReactNode;
}) {
  const appLinks = useAppLinks();
  return (
    <ToastProvider flashToast={flashToast}>
      {/* One click handler navigates every app link of the page on the client (useAppLinks). */}
      <div className="flex min-h-dvh flex-col" onClick={appLinks}>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <NavBar user={user} cartCount={cartCount} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <footer className="site-footer" dangerouslySetInnerHTML={FOOTER_HTML} />
        {/* The page's one polite live region: a pool's state changes (closed, target reached, drawn), written by
            usePoolLive and public/page.js; never the figures' every tick. */}
        <p id={POOL_ANNOUNCER_ID} className="sr-only" aria-live="polite" aria-atomic="true" />
      </div>
    </ToastProvider>
  );
}
