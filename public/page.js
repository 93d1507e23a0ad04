// The one small script every page loads (app/root.tsx). On pages sent without hydration (a visitor's home, shop,
// product, profile…) it does the little the page needs in the browser: selects that submit their form, the
// quantity stepper, the image gallery, the share button. On every page it keeps pool figures live.
//
// Live pools: every pool figure on a page follows ONE WebSocket, whatever the number of cards: each element marked
// data-pool-show="amount|target|mainPrize|percent|bar" gets the figure of the pool its nearest data-pool="<poolId>"
// names (itself, or an ancestor such as a card's pool strip, so a card names its pool once), in the currency of the
// nearest data-pool-currency="<code>", from /api/pools/live?ids=…&currency=… (the server formats it exactly as the
// page did). Works on pages sent without hydration; on hydrated pages it waits until React has hydrated, and follows navigations.
(() => {
  const MAX_POOLS = 48;
  const FIRST_RETRY_MS = 1000;
  const MAX_RETRY_MS = 30000;
  const PING_MS = 30000;
  const root = document.documentElement;
  let ready = !root.hasAttribute("data-hydrate") || root.dataset.hydrated === "true";
  /** @type {Map<string, {amount: string, target: string, mainPrize: string, percent: number}>} */
  const latest = new Map();
  /** @type {WebSocket | null} */
  let socket = null;
  let key = "";
  let retryMs = FIRST_RETRY_MS;
  let retryTimer = 0;
  let pingTimer = 0;
  /** The pools and currency the server refused (over a budget): not asked again until the page shows others. */
  let refusedKey = "";

  /** The last state text of each pool (the first update only records it: the page already shows that state). */
  const announced = new Map();
  /** Says a pool's state change (closed, target reached, drawn) in the page's one polite live region (app-shell.tsx). */
  function announce(poolId, text) {
    const seen = announced.has(poolId);
    const before = announced.get(poolId);
    announced.set(poolId, text);
    if (!seen || !text || text === before) return;
    const region = document.getElementById("pool-announcer");
    if (region && region.textContent !== text) region.textContent = text;
  }

  function apply(poolId) {
    const display = latest.get(poolId);
    if (!ready || !display) return;
    for (const element of document.querySelectorAll("[data-pool-show]")) {
      if (!(element instanceof HTMLElement)) continue;
      const owner = element.closest("[data-pool]");
      if (!(owner instanceof HTMLElement) || owner.dataset.pool !== poolId) continue;
      const show = element.dataset.poolShow;
      if (show === "bar") {
        element.style.width = `${display.percent}%`;
      } else if (show === "percent") {
        element.textContent = `${display.percent}%`;
      } else if (show && typeof display[show] === "string" && element.textContent !== display[show]) {
        element.textContent = display[show];
      }
    }
  }

  function wanted() {
    const elements = [...document.querySelectorAll("[data-pool]")].filter((e) => e instanceof HTMLElement);
    const ids = [...new Set(elements.map((e) => e.dataset.pool).filter(Boolean))].sort().slice(0, MAX_POOLS);
    const named = elements.map((e) => e.closest("[data-pool-currency]")).find(Boolean);
    const currency = named instanceof HTMLElement ? (named.dataset.poolCurrency ?? "USD") : "USD";
    return { ids, currency };
  }

  function disconnect() {
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    const old = socket;
    socket = null;
    if (old) old.close(1000, "done");
  }

  function connect(force) {
    const { ids, currency } = wanted();
    const next = `${currency}:${ids.join(",")}`;
    if (!force && next === key && (socket || next === refusedKey)) return;
    disconnect();
    key = next;
    if (ids.length === 0) return;
    const url = new URL("/api/pools/live", location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("ids", ids.join(","));
    url.searchParams.set("currency", currency);
    const current = new WebSocket(url);
    socket = current;
    current.addEventListener("open", () => {
      retryMs = FIRST_RETRY_MS;
      pingTimer = setInterval(() => current.readyState === WebSocket.OPEN && current.send("ping"), PING_MS);
    });
    current.addEventListener("message", (event) => {
      if (typeof event.data !== "string" || event.data === "pong") return;
      try {
        const message = JSON.parse(event.data);
        if (message?.type !== "pool" || typeof message.poolId !== "string" || !message.display) return;
        latest.set(message.poolId, message.display);
        apply(message.poolId);
        announce(message.poolId, typeof message.announce === "string" ? message.announce : null);
      } catch {
        // Not JSON: ignore.
      }
    });
    current.addEventListener("close", (event) => {
      if (socket !== current) return;
      socket = null;
      clearInterval(pingTimer);
      // Over a socket budget (1008, decision 430) the page keeps the figures it has and does not reconnect.
      if (event.code === 1008) {
        refusedKey = key;
        return;
      }
      // 4xx answers (unknown pools, bad input) come back as an immediate close too; the backoff keeps them rare.
      retryTimer = setTimeout(() => connect(true), retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  }

  if (!root.hasAttribute("data-hydrate")) enhanceStaticPage();

  // A notice the server sends as <dialog open aria-modal="true"> (the profile's Coming Soon) is shown as a modal:
  // the page behind it is out of the keyboard's reach, and Escape closes it (on any page, including one opened by a
  // client-side navigation).
  for (const dialog of document.querySelectorAll('dialog[open][aria-modal="true"]')) {
    dialog.close();
    dialog.showModal();
  }
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
  });

  window.addEventListener("tribe:hydrated", () => {
    ready = true;
    for (const poolId of latest.keys()) apply(poolId);
  });
  // Client-side navigations (hydrated pages) bring other cards, and a currency switch other texts: follow them.
  let scan = 0;
  new MutationObserver(() => {
    clearTimeout(scan);
    scan = setTimeout(() => connect(false), 200);
  }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-pool", "data-pool-currency"] });
  window.addEventListener("pagehide", disconnect);
  // Signing out unsubscribes this browser from push (the server deletes the subscription the session stored).
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || new URL(form.action, location.href).pathname !== "/signout") return;
      if (!("serviceWorker" in navigator)) return;
      navigator.serviceWorker
        .getRegistration()
        .then((registration) => registration?.pushManager?.getSubscription())
        .then((subscription) => subscription?.unsubscribe())
        .catch(() => undefined);
    },
    true,
  );
  window.addEventListener("pageshow", (event) => event.persisted && connect(true));
  connect(false);

  /** An amount as formatCents (app/domain/money.ts) writes it: "RM 1,234.50", "JPY 1,500". */
  function formatCents(cents, label, digits) {
    const group = (text) => text.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    const text = String(Math.max(0, Math.round(cents)));
    if (digits === 0) return `${label} ${group(text)}`;
    const padded = text.padStart(3, "0");
    return `${label} ${group(padded.slice(0, -2))}.${padded.slice(-2)}`;
  }

  /**
   * A product or buy-now form's total ([data-total]) and BUY NOW link ([data-buy-now]) follow the chosen size,
   * colour and quantity, as React keeps them on a hydrated page (shop-ui's purchaseTotalAttributes).
   */
  function updatePurchase(form) {
    if (!(form instanceof HTMLFormElement) || !form.querySelector("[data-total], a[data-buy-now]")) return;
    const size = form.querySelector('input[name="size"]:checked');
    if (!(size instanceof HTMLInputElement)) return;
    const field = form.querySelector("[data-stepper] input[type=number]");
    const quantity = Math.max(1, Math.floor(Number(field instanceof HTMLInputElement ? field.value : 1) || 1));
    const total = form.querySelector("[data-total]");
    if (total instanceof HTMLElement && size.dataset.unitCents) {
      // As shownPurchaseCents (app/domain/payments.ts): the charge (unit x quantity, checkout cents) converted once
      // by the exact rate fraction, rounded half up.
      const [num, den] = (total.dataset.rate ?? "1/1").split("/").map((n) => BigInt(n));
      const charge = BigInt(Math.floor(Number(size.dataset.unitCents))) * BigInt(quantity);
      const shown = (2n * charge * num + den) / (2n * den);
      total.textContent = formatCents(Number(shown), total.dataset.label ?? "", Number(total.dataset.digits));
    }
    const link = form.querySelector("a[data-buy-now]");
    if (link instanceof HTMLAnchorElement) {
      // The link's own address (its Ship-to choice) with the chosen size, colour and quantity, as the page's React does.
      const [path, kept] = (link.dataset.buyNow ?? "").split("?");
      const search = new URLSearchParams({ size: size.value });
      const colour = form.querySelector('input[name="color"]:checked');
      if (colour instanceof HTMLInputElement) search.set("color", colour.value);
      search.set("quantity", String(quantity));
      for (const [name, value] of new URLSearchParams(kept ?? "")) search.set(name, value);
      link.href = `${path}?${search}`;
    }
  }

  /** What React does on a hydrated page, done by event delegation on a static one. */
  function enhanceStaticPage() {
    document.addEventListener("change", (event) => {
      const target = event.target;
      if (target instanceof HTMLSelectElement && target.hasAttribute("data-auto-submit")) target.form?.requestSubmit();
      else if (target instanceof HTMLInputElement) updatePurchase(target.form);
    });
    // The mobile menu (a <details>): its button says whether it is open; Escape closes it.
    document.addEventListener(
      "toggle",
      (event) => {
        const menu = event.target;
        if (!(menu instanceof HTMLDetailsElement) || !menu.hasAttribute("data-menu")) return;
        const summary = menu.querySelector("summary");
        summary?.setAttribute("aria-expanded", String(menu.open));
        summary?.setAttribute("aria-label", menu.open ? "Close menu" : "Open menu");
      },
      true,
    );
    document.addEventListener("keydown", (event) => {
      const menu = document.querySelector("details[data-menu][open]");
      if (event.key !== "Escape" || !menu) return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
    });
    document.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target.closest("button") : null;
      if (!target) return;
      if (target.dataset.step) {
        const input = target.closest("[data-stepper]")?.querySelector("input[type=number]");
        if (!(input instanceof HTMLInputElement)) return;
        const max = Number(input.max) || Infinity;
        const next = Math.min(Math.max(1, (Number(input.value) || 1) + Number(target.dataset.step)), max);
        input.value = String(next);
        for (const button of target.closest("[data-stepper]").querySelectorAll("button[data-step]")) {
          button.disabled = Number(button.dataset.step) < 0 ? next <= 1 : next >= max;
        }
        updatePurchase(input.form);
      } else if (target.dataset.showImage) {
        const main = document.querySelector("img[data-main-image]");
        if (main instanceof HTMLImageElement) main.src = target.dataset.showImage;
        for (const thumb of document.querySelectorAll("button[data-show-image]")) {
          thumb.setAttribute("aria-pressed", String(thumb === target));
          thumb.classList.toggle("border-brand-600", thumb === target);
          thumb.classList.toggle("border-transparent", thumb !== target);
        }
      } else if (target.hasAttribute("data-share")) {
        const url = location.origin + location.pathname;
        if (navigator.share) navigator.share({ title: document.title, url }).catch(() => {});
        else {
          // The spec's text, for 2 s, as the hydrated page's toast says it.
          navigator.clipboard?.writeText(url).then(() => {
            const label = target.dataset.label ?? target.textContent ?? "";
            target.dataset.label = label;
            target.textContent = "Link copied to clipboard!";
            setTimeout(() => (target.textContent = label), 2000);
          }, () => {});
        }
      }
    });
  }
})();
