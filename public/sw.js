// Tribe's service worker: the static shell (hashed build assets, icons, manifest, offline page) is cached; pages are
// always fetched from the network (never cached: they may be signed in), and a page that cannot be fetched shows
// the offline page. API calls, uploads, media, checkout and data requests are never touched. It also shows the
// Web Push notifications the server sends (payload JSON: { title, body, url }).
const VERSION = "v1";
const SHELL_CACHE = `tribe-shell-${VERSION}`;
const OFFLINE_URL = "/offline.html";
const PRECACHE = [OFFLINE_URL, "/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("tribe-") && key !== SHELL_CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

/** Build assets are content-hashed (never change under one name), icons and the manifest change with a deploy. */
function isShellAsset(url) {
  return url.pathname.startsWith("/assets/") || url.pathname.startsWith("/icons/") || url.pathname === "/manifest.webmanifest" || url.pathname === "/favicon.ico";
}

/**
 * The offline page from the cache, as a fresh response: the static host may have answered /offline.html through a
 * redirect (to /offline), and a browser refuses a redirected response for a navigation.
 */
async function offlinePage() {
  const cached = await caches.match(OFFLINE_URL);
  if (!cached) return Response.error();
  return new Response(await cached.blob(), { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate") {
    // Pages: network only, never stored. Offline: the offline page.
    event.respondWith(fetch(request).catch(offlinePage));
    return;
  }

  if (isShellAsset(url)) {
    event.respondWith(
      caches.open(SHELL_CACHE).then(async (cache) => {
        const cached = await cache.match(request);
        if (cached) return cached;
        const response = await fetch(request);
        if (response.ok && response.type === "basic") cache.put(request, response.clone());
        return response;
      }),
    );
  }
  // Everything else (/api, /media, loader data, checkout, exports) goes to the network untouched.
});

self.addEventListener("push", (event) => {
  let message = { title: "Tribe", body: "", url: "/" };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    if (event.data) message.body = event.data.text();
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      data: { url: typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === target);
      return open ? open.focus() : self.clients.openWindow(target);
    }),
  );
});
