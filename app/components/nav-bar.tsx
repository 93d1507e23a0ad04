import { useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { Form, useLocation } from "react-router";
import { Link } from "./link";
import type { SessionUser } from "~/lib/auth.server";
import { useHydrated } from "~/lib/hydration";
import { PROFILE_UPDATED_EVENT } from "~/lib/settings-form";

const primaryLinks = [
  { to: "/shop", label: "Shop" },
  { to: "/guess-win", label: "Guess & Win" },
  { to: "/winner-selection", label: "Winner Selection" },
];

function accountLinks(user: SessionUser) {
  return [
    { to: "/dashboard", label: "Dashboard" },
    { to: `/profile/${user.id}`, label: "Profile" },
    { to: "/wishlist", label: "Wishlist" },
    { to: "/settings", label: "Settings" },
  ];
}

/** A visitor's links (from md on, Sign Up is drawn as the bar's call to action: app.css). */
const visitorLinks = [
  { to: "/shipping-tracking", label: "Track Your Order" },
  { to: "/signin", label: "Sign In" },
  { to: "/signup", label: "Sign Up" },
];

/**
 * The signed-in user as the bar shows it: the loader's data, with what a `profileUpdated` event (fired by Settings
 * after a save, detail { creatorName?, avatarUrl? }) changed applied at once, before the loaders re-run.
 */
function useDisplayedUser(user: SessionUser | null): SessionUser | null {
  const [changed, setChanged] = useState<{ for: SessionUser | null; creatorName?: string; avatarUrl?: string | null }>({
    for: user,
  });
  useEffect(() => {
    const onUpdated = (event: Event) => {
      const detail = (event as CustomEvent<{ creatorName?: unknown; avatarUrl?: unknown }>).detail ?? {};
      setChanged({
        for: user,
        ...(typeof detail.creatorName === "string" ? { creatorName: detail.creatorName } : {}),
        ...(typeof detail.avatarUrl === "string" ? { avatarUrl: detail.avatarUrl } : {}),
      });
    };
    window.addEventListener(PROFILE_UPDATED_EVENT, onUpdated);
    return () => window.removeEventListener(PROFILE_UPDATED_EVENT, onUpdated);
  }, [user]);
  if (!user || changed.for !== user) return user;
  return {
    ...user,
    creatorName: changed.creatorName ?? user.creatorName,
    avatarUrl: changed.avatarUrl !== undefined ? changed.avatarUrl : user.avatarUrl,
  };
}

/** Whether a bar link is the page shown (aria-current): the page itself or one below it (`/shop/...`), case-insensitive. */
function isCurrentPath(pathname: string, to: string): boolean {
  const here = pathname.toLowerCase();
  const target = to.toLowerCase();
  return here === target || (here.startsWith(target) && here.charAt(target.length) === "/");
}

/**
 * Sticky top bar: brand, the three main links, the cart, and an account menu (signed in) or the visitor links.
 * Every link is rendered once: under md the main links (and a visitor's links) are the mobile menu's panel, from md
 * on the same list sits in the bar (app.css, "nav bar"); the account menu is the same dropdown at every width.
 */
export function NavBar({ user: loadedUser, cartCount = 0 }: { user: SessionUser | null; cartCount?: number }) {
  const user = useDisplayedUser(loadedUser);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menu = useMobileMenu(menuButton);
  const { pathname } = useLocation();
  return (
    <header className="site-header">
      <nav aria-label="Main">
        <Link to="/" className="nav-brand">
          <span aria-hidden="true">
            <svg viewBox="0 0 20 20" fill="currentColor">
              <path d="M10 2 3 6v8l7 4 7-4V6l-7-4Zm0 2.3 4.6 2.6L10 9.6 5.4 6.9 10 4.3ZM5 8.6l4 2.3v4.6l-4-2.3V8.6Zm6 6.9v-4.6l4-2.3v4.6l-4 2.3Z" />
            </svg>
          </span>
          Tribe
        </Link>

        <div id="mobile-menu" className="nav-menu" data-open={menu.open || undefined}>
          <ul>{navLinks(primaryLinks, pathname)}</ul>
          {user ? null : <ul>{navLinks(visitorLinks, pathname)}</ul>}
        </div>

        <CartLink count={cartCount} />
        {user ? (
          <div className="nav-user">
            <NotificationsLink unread={user.unreadNotifications ?? 0} />
            <MessagesLink unread={user.unreadMessages ?? 0} />
            <AccountMenu user={user} />
          </div>
        ) : null}
        <MobileMenuButton open={menu.open} onToggle={menu.toggle} buttonRef={menuButton} />
      </nav>
    </header>
  );
}

/** The bar's page links; the one for the page shown is marked current. (The menu closes on navigation: useMobileMenu.) */
function navLinks(list: readonly { to: string; label: string }[], pathname: string): ReactNode {
  return list.map((link) => (
    <li key={link.to}>
      <Link to={link.to} aria-current={isCurrentPath(pathname, link.to) ? "page" : undefined} className="nav-link">
        {link.label}
      </Link>
    </li>
  ));
}

/** The cart (/cart) with the number of items in it (the account's cart, or a visitor's from their cookie). */
function CartLink({ count }: { count: number }) {
  return (
    <Link to="/cart" className="nav-icon nav-cart">
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor">
        <path d="M2 3h2.2l.4 2H17l-1.6 7.2a1.5 1.5 0 0 1-1.5 1.2H7.1a1.5 1.5 0 0 1-1.5-1.2L3.6 4.6 3.4 4H2V3Zm5 13.5a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0Zm6 0a1.5 1.5 0 1 0 3 0 1.5 1.5 0 0 0-3 0Z" />
      </svg>
      <span className="sr-only md:not-sr-only">Cart</span>
      {count > 0 ? (
        <>
          {" "}
          <span data-testid="cart-count" className="nav-count">
            {count > 99 ? "99+" : count}
            <span className="sr-only">{count === 1 ? " item" : " items"}</span>
          </span>
        </>
      ) : null}
    </Link>
  );
}

/** The bell: the inbox (/notifications) with the number of notifications not read yet. */
function NotificationsLink({ unread }: { unread: number }) {
  return (
    <Link
      to="/notifications"
      aria-label={unread > 0 ? `Notifications, ${unread > 99 ? "99+" : unread} unread` : "Notifications"}
      className="nav-icon"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor">
        <path d="M10 2a5 5 0 0 0-5 5v2.6c0 .5-.2 1-.5 1.4L3.3 12.6A1 1 0 0 0 4.1 14h11.8a1 1 0 0 0 .8-1.4L15.5 11a2.3 2.3 0 0 1-.5-1.4V7a5 5 0 0 0-5-5Zm-2 13.5a2 2 0 0 0 4 0H8Z" />
      </svg>
      {unread > 0 ? (
        <span data-testid="notification-count" className="nav-count">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}

/** Messages (/chat) with the number of unread chat messages. */
function MessagesLink({ unread }: { unread: number }) {
  return (
    <Link to="/chat" aria-label={unread > 0 ? `Messages, ${unread} unread` : "Messages"} className="nav-icon">
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor">
        <path d="M3 4.5A2.5 2.5 0 0 1 5.5 2h9A2.5 2.5 0 0 1 17 4.5v7a2.5 2.5 0 0 1-2.5 2.5H9l-4 3.5V14h.5A2.5 2.5 0 0 1 3 11.5v-7Z" />
      </svg>
      {unread > 0 ? (
        <span data-testid="unread-count" className="nav-count">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}

function Avatar({ user }: { user: SessionUser }) {
  if (user.avatarUrl) {
    return <img src={user.avatarUrl} alt="" className="nav-avatar object-cover" />;
  }
  return (
    <span aria-hidden="true" className="nav-avatar">
      {user.creatorName.charAt(0).toUpperCase() || "?"}
    </span>
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

  return (
    <details ref={ref} className="account-menu">
      <summary>
        <Avatar user={user} />
        <span className="sr-only">Account menu for </span>
        {/* The name shows from md on; under md the avatar stands for it (the name stays in the accessible name). */}
        <span className="sr-only md:not-sr-only md:max-w-40 md:truncate">{user.creatorName}</span>
      </summary>
      <div>
        <p>
          Signed in as <b>{user.email}</b>
        </p>
        <ul>
          {accountLinks(user).map((link) => (
            <li key={link.to}>
              <Link to={link.to} className="menu-item">
                {link.label}
              </Link>
            </li>
          ))}
          <li>
            <Form method="post" action="/signout">
              <button type="submit" className="menu-item">
                Sign Out
              </button>
            </Form>
          </li>
        </ul>
      </div>
    </details>
  );
}

/** The mobile menu's open state (hydrated pages): closed on navigation and on Escape. */
function useMobileMenu(buttonRef: RefObject<HTMLButtonElement | null>) {
  // The location the menu was opened on: navigating elsewhere closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const location = useLocation();
  const open = openOn === location.key;

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpenOn(null);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, buttonRef]);

  return { open, toggle: () => setOpenOn(open ? null : location.key) };
}

/**
 * The hamburger button under md, which shows the panel #mobile-menu (the bar's list of links). Before hydration
 * (or without JavaScript) it is a <details> disclosure whose state CSS follows (/page.js updates its label and
 * state on toggle); once React runs it becomes a button with aria-expanded.
 */
function MobileMenuButton({
  open,
  onToggle,
  buttonRef,
}: {
  open: boolean;
  onToggle: () => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <details className="menu-toggle" data-menu>
        <summary role="button" aria-expanded="false" aria-controls="mobile-menu" aria-label="Open menu" />
      </details>
    );
  }
  return (
    <button
      ref={buttonRef}
      type="button"
      className="menu-toggle"
      aria-expanded={open}
      aria-controls="mobile-menu"
      aria-label={open ? "Close menu" : "Open menu"}
      onClick={onToggle}
    />
  );
}
