import type { ReactNode } from "react";
import { Link } from "react-router";
import type { SessionUser } from "~/lib/auth.server";
import { NavBar } from "./nav-bar";
import { ToastProvider, type ToastInput } from "./toaster";

const footerLinks = [
  { to: "/winner-selection", label: "How It Works" },
  { to: "/signup", label: "Join Now" },
  { to: "/explore", label: "Explore" },
  { to: "/terms", label: "Terms" },
  { to: "/privacy", label: "Privacy" },
];

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
  return (
    <ToastProvider flashToast={flashToast}>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-[70] rounded-lg bg-white px-4 py-2 font-medium text-gray-900 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to content
        </a>
        <NavBar user={user} cartCount={cartCount} />
        <main id="main" className="flex-1">
          {children}
        </main>
        <footer className="border-t border-gray-200 bg-white">
          <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 text-sm text-gray-600 sm:flex-row sm:items-center sm:justify-between sm:px-6">
            <p>
              <span className="font-semibold text-gray-900">Tribe</span> · Group buys, Guess &amp; Win and a prize pool
              drawn from a public Bitcoin block.
            </p>
            <nav aria-label="Footer">
              <ul className="flex flex-wrap gap-x-5 gap-y-2">
                {footerLinks.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="hover:text-gray-900 hover:underline">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        </footer>
      </div>
    </ToastProvider>
  );
}
