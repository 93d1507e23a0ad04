/**
 * The install banner ('Install' / 'Not now'), rendered hidden on every page; /pwa.js shows it when the browser
 * offers installation (beforeinstallprompt) and the user has not said 'Not now' on this browser before.
 */
export function InstallBanner() {
  return (
    <div
      id="install-banner"
      role="region"
      aria-label="Install app"
      hidden
      suppressHydrationWarning
      className="install-banner"
    >
      {/* Lazy: the banner is hidden on most visits, and React would otherwise preload its icon on every page. */}
      <img src="/icons/icon-192.png" alt="" width={40} height={40} loading="lazy" />
      <p>Install Tribe on this device for quick access.</p>
      <button type="button" data-install-dismiss>
        Not now
      </button>
      <button type="button" data-install-accept>
        Install
      </button>
    </div>
  );
}
