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
      className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-md items-center gap-3 rounded-xl border border-gray-200 bg-white p-3 shadow-lg [&[hidden]]:hidden"
    >
      <img src="/icons/icon-192.png" alt="" width={40} height={40} className="h-10 w-10 rounded-lg" />
      <p className="min-w-0 flex-1 text-sm text-gray-800">Install Tribe on this device for quick access.</p>
      <button
        type="button"
        data-install-dismiss
        className="cursor-pointer rounded-lg px-3 py-1.5 text-sm font-semibold text-gray-700 hover:bg-gray-100"
      >
        Not now
      </button>
      <button
        type="button"
        data-install-accept
        className="cursor-pointer rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
      >
        Install
      </button>
    </div>
  );
}
