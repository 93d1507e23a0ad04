// Which Web Push endpoints the server stores and posts to (decision 430): https on port 443 at a known push
// service, by the parsed hostname. A test host may be named by the PUSH_TEST_HOST variable, honoured only outside
// production (demo mode); an address literal or a local name never, so no endpoint can point the Worker at a
// private or link-local address.

/** The push services of the browsers we support (Chrome/Edge/Android, Firefox, Safari, Windows). */
export const PUSH_SERVICE_HOSTS: readonly string[] = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "web.push.apple.com",
];
/** Windows Push Notification Services: any subdomain of this. */
export const PUSH_SERVICE_HOST_SUFFIXES: readonly string[] = [".notify.windows.com"];

export const PUSH_MESSAGES = {
  endpoint: "This browser's push service is not supported. Please try another browser.",
  taken: "This browser already receives notifications for another account. Sign out there first.",
} as const;

/** A host the URL parser gives as an IPv4 or IPv6 literal, or a name that stays on the local network. */
function isAddressOrLocalName(hostname: string): boolean {
  if (hostname.startsWith("[") || /^[\d.]+$/.test(hostname) || /^0x/i.test(hostname)) return true;
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname.endsWith(".local") ||
    !hostname.includes(".")
  );
}

/** Whether the server may store and post to this push endpoint. `testHost` is honoured only outside production. */
export function isAllowedPushEndpoint(endpoint: string, testHost: string | null = null): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password || (url.port !== "" && url.port !== "443"))
    return false;
  const host = url.hostname.toLowerCase();
  if (isAddressOrLocalName(host)) return false;
  if (PUSH_SERVICE_HOSTS.includes(host)) return true;
  if (PUSH_SERVICE_HOST_SUFFIXES.some((suffix) => host.endsWith(suffix) && host.length > suffix.length)) return true;
  return testHost !== null && testHost !== "" && host === testHost.toLowerCase();
}

/** The test push host in force: PUSH_TEST_HOST in demo mode only (production ignores it). */
export function pushTestHost(vars: { DEMO_MODE?: string; PUSH_TEST_HOST?: string }): string | null {
  return vars.DEMO_MODE === "true" && vars.PUSH_TEST_HOST ? vars.PUSH_TEST_HOST : null;
}
