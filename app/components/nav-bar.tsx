import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import type { SessionUser } from "~/lib/auth.server";

const primaryLinks = [
  { to: "/shop", label: "Shop" },
  { to: "/guess-win", label: "Guess & Win" },
  { to: "/winner-selection", label: "Winner Selection" },
];

function accountLinks(user: SessionUser) {
  return [
    { to: "/dashboard", label: "Dashboard" },
    { to: `/profile/${user.id}`, label: "Profile" },
    { to: "/settings", label: "Settings" },
  ];
}

const visitorLinks = [
  { to: "/signup", label: "Sign Up" },
  { to: "/signin", label: "Sign In" },
  { to: "/shipping-tracking", label: "Track Your Order" },
];

const noop = () => () => {};
/** False on the server and during hydration, true once React runs in the browser. */
function useHydrated() {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}

/**
 * The signed-in user as the bar shows it: the loader's data, with what a `profileUpdated` event (fired by Settings
 * after a save, detail { creatorName?, avatarUrl? }) changed applied at once, before the loaders re-run.
 */
function useDisplayedUser(user: SessionUser | null): SessionUser | null {
  const [changed, setChanged] = useState<{ for: SessionUser | null; creatorName?: string; avatarUrl?: string | null }>({ for: user });
  useEffect(() => {
    const onUpdated = (event: Event) => {
      const detail = (event as CustomEvent<{ creatorName?: unknown; avatarUrl?: unknown }>).detail ?? {};
      setChanged({
        for: user,
        ...(typeof detail.creatorName === "string" ? { creatorName: detail.creatorName } : {}),
        ...(typeof detail.avatarUrl === "string" ? { avatarUrl: detail.avatarUrl } : {}),
      });
    };
    window.addEventListener("profileUpdated", onUpdated);
    return () => window.removeEventListener("profileUpdated", onUpdated);
  }, [user]);
  if (!user || changed.for !== user) return user;
  return {
    ...user,
    creatorName: changed.creatorName ?? user.creatorName,
    avatarUrl: changed.avatarUrl !== undefined ? changed.avatarUrl : user.avatarUrl,
  };
}

/** Sticky top bar: brand, the three main links, and an account menu (signed in) or the visitor links. */
export function NavBar({ user: loadedUser, cartCount = 0 }: { user: SessionUser | null; cartCount?: number }) {
  const user = useDisplayedUser(loadedUser);
  return (
    <header className="sticky top-0 z-50 border-b border-gray-200 bg-white/95 backdrop-blur">
      <nav aria-label="Main" className="relative mx-auto flex h-16 max-w-7xl items-center gap-6 px-4 sm:px-6">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded text-lg font-extrabold tracking-tight text-gray-900 focus-visible:outline-2 focus-visible:outline-brand-500"
        >
          <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-white">
            <svg viewBox="0 0 20 20" fill="currentColor" className="h-5 w-5">
              <path d="M10 2 3 6v8l7 4 7-4V6l-7-4Zm0 2.3 4.6 2.6L10 9.6 5.4 6.9 10 4.3ZM5 8.6l4 2.3v4.6l-4-2.3V8.6Zm6 6.9v-4.6l4-2.3v4.6l-4 2.3Z" />
            </svg>
          </span>
          Tribe
        </Link>

        <ul className="hidden items-center gap-1 md:flex">
          {primaryLinks.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                className="nav-link"
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>

        <CartLink count={cartCount} />

        <div className="hidden items-center gap-2 md:flex">
          {user ? (
            <>
              <MessagesLink unread={user.unreadMessages ?? 0} />
              <AccountMenu user={user} />
            </>
          ) : (
            <>
              <Link
                to="/shipping-tracking"
                className="rounded-lg px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-100 hover:text-gray-900"
              >
                Track Your Order
              </Link>
              <Link
                to="/signin"
                className="rounded-lg px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-100 hover:text-gray-900"
              >
                Sign In
              </Link>
              <Link
                to="/signup"
                className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
              >
                Sign Up
              </Link>
            </>
          )}
        </div>

        <MobileMenu user={user} />
      </nav>
    </header>
  );
}

/** The cart (/cart) with the number of items in it (the account's cart, or a visitor's from their cookie). */
function CartLink({ count }: { count: number }) {
  return (
    <Link
      to="/cart"
      className="nav-link relative ml-auto inline-flex items-center gap-1"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-5 w-5">
        <path d="M2 3h2.2l.4 2H17l-1.6 7.2a1.5 1.5 0 0 1-1.5 1.2H7.1a1.5 1.5 0 0 1-1.5-1.2L3.6 4.6 3.4 4H2V3Zm5 13.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0Zm6 0a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0Z" />
      </svg>
      <span className="sr-only md:not-sr-only">Cart</span>
      {count > 0 ? (
        <>
          {" "}
          <span data-testid="cart-count" className="min-w-5 rounded-full bg-brand-600 px-1.5 text-center text-xs font-bold text-white">
            {count > 99 ? "99+" : count}
            <span className="sr-only">{count === 1 ? " item" : " items"}</span>
          </span>
        </>
      ) : null}
    </Link>
  );
}

/** Messages (/chat) with the number of unread chat messages. */
function MessagesLink({ unread, className = "" }: { unread: number; className?: string }) {
  return (
    <Link
      to="/chat"
      aria-label={unread > 0 ? `Messages, ${unread} unread` : "Messages"}
      className={`nav-link relative inline-flex items-center gap-2 ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-5 w-5">
        <path d="M3 4.5A2.5 2.5 0 0 1 5.5 2h9A2.5 2.5 0 0 1 17 4.5v7a2.5 2.5 0 0 1-2.5 2.5H9l-4 3.5V14h.5A2.5 2.5 0 0 1 3 11.5v-7Z" />
      </svg>
      <span className="md:sr-only">Messages</span>
      {unread > 0 ? (
        <span data-testid="unread-count" className="min-w-5 rounded-full bg-brand-600 px-1.5 text-center text-xs font-bold text-white">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}

function Avatar({ user }: { user: SessionUser }) {
  if (user.avatarUrl) {
    return <img src={user.avatarUrl} alt="" className="h-8 w-8 rounded-full object-cover" />;
  }
  return (
    <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-full bg-brand-100 text-sm font-bold text-brand-700">
      {user.creatorName.charAt(0).toUpperCase() || "?"}
    </span>
  );
}

function SignOutButton({ className }: { className: string }) {
  return (
    <Form method="post" action="/signout">
      <button type="submit" className={className}>
        Sign Out
      </button>
    </Form>
  );
}

/** A <details> dropdown: opens and closes without JavaScript; with it, it also closes on navigation, Escape and outside clicks. */
function AccountMenu({ user }: { user: SessionUser }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  useEffect(() => {
    ref.current?.removeAttribute("open");
  }, [location.key]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape" && details.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  const item = "menu-item";
  return (
    <details ref={ref} className="group relative">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-brand-500 [&::-webkit-details-marker]:hidden">
        <Avatar user={user} />
        <span className="sr-only">Account menu for </span>
        <span className="max-w-40 truncate">{user.creatorName}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4 text-gray-500 transition-transform group-open:rotate-180">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
        </svg>
      </summary>
      <div className="absolute right-0 mt-2 w-60 overflow-hidden rounded-xl border border-gray-200 bg-white py-1 shadow-lg">
        <p className="truncate border-b border-gray-100 px-4 py-2 text-xs text-gray-500">
          Signed in as <span className="font-medium text-gray-800">{user.email}</span>
        </p>
        <ul>
          {accountLinks(user).map((link) => (
            <li key={link.to}>
              <Link to={link.to} className={item}>
                {link.label}
              </Link>
            </li>
          ))}
          <li className="border-t border-gray-100">
            <SignOutButton className={`${item} cursor-pointer`} />
          </li>
        </ul>
      </div>
    </details>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" className="h-6 w-6">
      {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
    </svg>
  );
}

const mobileButton =
  "ml-auto grid h-10 w-10 cursor-pointer list-none place-items-center rounded-lg text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-brand-500 md:hidden [&::-webkit-details-marker]:hidden";

/**
 * The hamburger menu under md. Before hydration (or without JavaScript) it is a <details> disclosure; once React
 * runs it becomes a button with aria-expanded that closes on navigation and on Escape.
 */
function MobileMenu({ user }: { user: SessionUser | null }) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  useEffect(() => {
    setOpen(false);
  }, [location.key]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);

  if (!hydrated) {
    return (
      // A page sent without hydration keeps this version: /page.js updates its label and state on toggle.
      <details className="group md:hidden" data-menu>
        <summary role="button" aria-expanded="false" aria-controls="mobile-menu" aria-label="Open menu" className={mobileButton}>
          <span className="group-open:hidden">
            <MenuIcon open={false} />
          </span>
          <span className="hidden group-open:block">
            <MenuIcon open />
          </span>
        </summary>
        <MobilePanel user={user} id="mobile-menu" />
      </details>
    );
  }

  return (
    <div className="md:hidden">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls="mobile-menu"
        aria-label={open ? "Close menu" : "Open menu"}
        onClick={() => setOpen((value) => !value)}
        className={mobileButton}
      >
        <MenuIcon open={open} />
      </button>
      <MobilePanel user={user} id="mobile-menu" hidden={!open} onNavigate={() => setOpen(false)} />
    </div>
  );
}

function MobilePanel({
  user,
  id,
  hidden,
  onNavigate,
}: {
  user: SessionUser | null;
  id?: string;
  hidden?: boolean;
  onNavigate?: () => void;
}) {
  const item = "mobile-item";
  const links = (list: { to: string; label: string }[]): ReactNode =>
    list.map((link) => (
      <li key={link.to}>
        <NavLink
          to={link.to}
          onClick={onNavigate}
          className={item}
        >
          {link.label}
        </NavLink>
      </li>
    ));
  return (
    <div
      id={id}
      hidden={hidden}
      className="absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-gray-200 bg-white px-4 pb-4 shadow-lg md:hidden"
    >
      <ul className="space-y-1 border-b border-gray-100 py-3">{links(primaryLinks)}</ul>
      {user ? (
        <div className="pt-3">
          <div className="flex items-center gap-3 px-3 pb-2">
            <Avatar user={user} />
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-gray-900">{user.creatorName}</p>
              <p className="truncate text-xs text-gray-500">{user.email}</p>
            </div>
          </div>
          <ul className="space-y-1">
            <li onClick={onNavigate}>
              <MessagesLink unread={user.unreadMessages ?? 0} className="w-full px-3 py-3 text-base text-gray-800" />
            </li>
            {links(accountLinks(user))}
            <li>
              <SignOutButton className={`${item} w-full cursor-pointer text-left`} />
            </li>
          </ul>
        </div>
      ) : (
        <ul className="space-y-1 pt-3">{links(visitorLinks)}</ul>
      )}
    </div>
  );
}
