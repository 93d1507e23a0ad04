// The installable app, on every page (loaded by app/root.tsx, hydrated or not): registers the service worker
// (/sw.js) at start-up, and shows the install banner when the browser offers installation. 'Not now' is remembered
// on this browser (localStorage), so the banner does not come back.
(() => {
  const DISMISSED_KEY = "tribe-install-dismissed";

  if ("serviceWorker" in navigator) {
    const register = () =>
      navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("service worker registration failed", error));
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
  }

  function dismissed() {
    try {
      return localStorage.getItem(DISMISSED_KEY) === "1";
    } catch {
      return false;
    }
  }

  /** @type {any} */
  let offer = null;
  const banner = () => document.getElementById("install-banner");

  function hide() {
    banner()?.setAttribute("hidden", "");
  }

  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    if (dismissed()) return;
    offer = event;
    banner()?.removeAttribute("hidden");
  });

  window.addEventListener("appinstalled", () => {
    offer = null;
    hide();
  });

  document.addEventListener("click", async (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest("[data-install-dismiss]")) {
      try {
        localStorage.setItem(DISMISSED_KEY, "1");
      } catch {
        // Storage blocked: the banner simply closes for now.
      }
      offer = null;
      hide();
    } else if (target?.closest("[data-install-accept]")) {
      const current = offer;
      offer = null;
      hide();
      if (current) {
        await current.prompt();
        await current.userChoice.catch(() => undefined);
      }
    }
  });
})();
