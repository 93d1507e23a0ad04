import { useEffect, useState, useSyncExternalStore } from "react";
import { Button, Card } from "~/components/page";
import { useToast } from "~/components/toaster";
import type { SettingsPageData } from "~/lib/settings-form";
import { SaveButton, SETTINGS_ACTION, Switch, useSettingsFetcher } from "./settings-ui";

export function NotificationsSection({ data: d }: { data: SettingsPageData }) {
  const fetcher = useSettingsFetcher("settings-notifications");
  const n = d.notifications;
  return (
    <div className="space-y-6">
      <Card>
        <h2 className="font-semibold text-gray-900">Notifications</h2>
        <fetcher.Form method="post" action={SETTINGS_ACTION} className="mt-2">
          <input type="hidden" name="intent" value="notifications" />
          <div className="divide-y divide-gray-100">
            <Switch
              name="emailNotifications"
              label="E-mail notifications"
              hint="Sales, wins and pool updates by e-mail."
              defaultChecked={n.emailNotifications}
            />
            <Switch
              name="pushNotifications"
              label="Push notifications"
              hint="Sales, wins, pool updates and your orders on the devices where you turned push on."
              defaultChecked={n.pushNotifications}
            />
            <Switch
              name="winnerNotifications"
              label="Winner notifications"
              hint="When one of your entries wins a prize pool."
              defaultChecked={n.winnerNotifications}
            />
            <Switch
              name="salesNotifications"
              label="Sales notifications"
              hint="When someone buys from your shop."
              defaultChecked={n.salesNotifications}
            />
            <Switch
              name="poolNotifications"
              label="Pool updates"
              hint="When a prize pool you hold entries in (or run) closes and is drawn."
              defaultChecked={n.poolNotifications}
            />
          </div>
          <p className="mt-2 text-sm text-gray-600">
            Mail about a purchase or your account (order confirmations, payments, shipping, refunds, returns, payouts,
            password reset and e-mail confirmation) is always sent. Every notification is also in your{" "}
            <a href="/notifications" className="underline">
              notifications
            </a>
            .
          </p>
          <div className="mt-4">
            <SaveButton pending={fetcher.state !== "idle"} />
          </div>
        </fetcher.Form>
      </Card>
      <PushDevice publicKey={d.pushPublicKey} />
    </div>
  );
}

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const normal = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(normal + "=".repeat((4 - (normal.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function bytesToBase64Url(buffer: ArrayBuffer | null): string {
  if (!buffer) return "";
  return btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** What this browser offers for push, read from its globals on each render (there is nothing to subscribe to). */
function pushSupport(publicKey: string | null): "unsupported" | "blocked" | "available" {
  if (!publicKey || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "unsupported";
  }
  return Notification.permission === "denied" ? "blocked" : "available";
}

const subscribeToNothing = () => () => {};

/** Turns Web Push on or off for this browser: a subscription through the service worker, stored on the server. */
function PushDevice({ publicKey }: { publicKey: string | null }) {
  const fetcher = useSettingsFetcher("settings-push");
  const toast = useToast();
  const support = useSyncExternalStore(
    subscribeToNothing,
    () => pushSupport(publicKey),
    () => "unknown" as const,
  );
  const [subscribed, setSubscribed] = useState<"unknown" | "unsupported" | "off" | "on" | "blocked">("unknown");
  const [busy, setBusy] = useState(false);
  const state = support === "available" ? subscribed : support;

  useEffect(() => {
    if (support !== "available") return;
    navigator.serviceWorker.ready
      .then((registration) => registration.pushManager.getSubscription())
      .then((sub) => setSubscribed(sub ? "on" : "off"))
      .catch(() => setSubscribed("unsupported"));
  }, [support]);

  async function turnOn() {
    if (!publicKey) return;
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setSubscribed(permission === "denied" ? "blocked" : "off");
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const sub = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(publicKey),
      });
      fetcher.submit(
        {
          intent: "push-subscribe",
          endpoint: sub.endpoint,
          p256dh: bytesToBase64Url(sub.getKey("p256dh")),
          auth: bytesToBase64Url(sub.getKey("auth")),
        },
        { method: "post", action: SETTINGS_ACTION },
      );
      setSubscribed("on");
    } catch (error) {
      toast({ message: `Push notifications could not be turned on: ${(error as Error).message}`, type: "error" });
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setBusy(true);
    try {
      const registration = await navigator.serviceWorker.ready;
      const sub = await registration.pushManager.getSubscription();
      if (sub) {
        fetcher.submit(
          { intent: "push-unsubscribe", endpoint: sub.endpoint },
          { method: "post", action: SETTINGS_ACTION },
        );
        await sub.unsubscribe();
      }
      setSubscribed("off");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <h2 className="font-semibold text-gray-900">This device</h2>
      {state === "unsupported" ? (
        <p className="mt-1 text-sm text-gray-600">This browser cannot receive push notifications from Tribe.</p>
      ) : state === "blocked" ? (
        <p className="mt-1 text-sm text-gray-600">Notifications are blocked for this site in your browser settings.</p>
      ) : (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-gray-600">
            {state === "on"
              ? "Push notifications are on for this device."
              : "Push notifications are off for this device."}
          </p>
          {state === "on" ? (
            <Button type="button" variant="secondary" disabled={busy} onClick={turnOff}>
              Turn off on this device
            </Button>
          ) : (
            <Button type="button" disabled={busy || state === "unknown"} onClick={turnOn}>
              Turn on on this device
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}
