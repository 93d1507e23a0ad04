import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { data, redirect, useFetcher } from "react-router";
import { Link } from "~/components/link";
import { Field, FormError, NewPasswordField, SelectField } from "~/components/form";
import { Badge, Button, Card, Page, pageMeta } from "~/components/page";
import { useToast } from "~/components/toaster";
import { getDb } from "~/db/client.server";
import { getOwnProfile, listShippingCountryCodes } from "~/db/queries/profiles.server";
import {
  deletePushSubscription,
  replaceShippingCountries,
  updateNotificationSwitches,
  updatePrivacySwitches,
  updateProfileFields,
} from "~/db/queries/settings.server";
import { IMAGE_MAX_BYTES } from "~/domain/catalog";
import { countryByCode, SHIPPING_COUNTRIES } from "~/domain/currency";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { hostCookie } from "~/lib/cookies.server";
import { SESSION_COOKIE } from "~/lib/session.server";
import {
  BIO_MAX_LENGTH,
  ChangeEmailSchema,
  ChangePasswordSchema,
  DELETE_CONFIRMATION_WORD,
  DeleteAccountSchema,
  NotificationsSchema,
  PrivacySchema,
  PROFILE_CATEGORIES,
  ProfileSchema,
  PushSubscriptionSchema,
  SETTINGS_MESSAGES,
  ShippingSchema,
} from "~/lib/settings-form";
import { listOrdersKeepingBuyerData } from "~/db/queries/account-data.server";
import { countClaimableGuestOrders } from "~/db/queries/orders.server";
import { sendOrderClaimMail } from "~/lib/account-mail.server";
import { mayMailAccount } from "~/lib/throttle.server";
import { refusingCommonPasswords } from "~/lib/common-passwords.server";
import {
  changePassword,
  deleteAccount,
  isCurrentPassword,
  replaceProfileImage,
  requestEmailChange,
} from "~/lib/settings.server";
import { flashToastCookie } from "~/lib/toast.server";
import { subscribeBrowser } from "~/lib/push-subscriptions.server";
import { readUpload, UploadError } from "~/lib/uploads.server";
import { fieldErrors } from "~/lib/validation";
import type { Route } from "./+types/settings";

const TABS = [
  { id: "profile", label: "Profile" },
  { id: "shipping", label: "Shipping" },
  { id: "notifications", label: "Notifications" },
  { id: "privacy", label: "Privacy" },
  { id: "account", label: "Account" },
] as const;
type Tab = (typeof TABS)[number]["id"];

/** The browser event the nav bar listens to, so the new name shows at once. */
export const PROFILE_UPDATED_EVENT = "profileUpdated";

export const meta: Route.MetaFunction = () => pageMeta("Settings");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const requested = new URL(request.url).searchParams.get("tab");
  const tab: Tab = TABS.some((t) => t.id === requested) ? (requested as Tab) : "profile";
  const [profile, shipping, openOrders, guestOrders] = await Promise.all([
    getOwnProfile(db, user.id),
    listShippingCountryCodes(db, user.id),
    // The deletion form lists the orders that keep the buyer's details until they close (decision 410).
    tab === "account" ? listOrdersKeepingBuyerData(db, user.id) : Promise.resolve([]),
    // Guest orders paid with the account's address that it may claim through a mailed link.
    tab === "account" ? countClaimableGuestOrders(db, user.id) : Promise.resolve(0),
  ]);
  if (!profile) throw new Response("Profile not found", { status: 404 });
  return {
    tab,
    userId: user.id,
    email: user.email,
    profile: {
      creatorName: profile.creatorName,
      category: profile.category,
      bio: profile.bio ?? "",
      website: profile.website ?? "",
      avatarUrl: profile.avatarUrl,
      coverImageUrl: profile.coverImageUrl,
      country: countryByCode(profile.country).name,
    },
    shipping,
    notifications: {
      emailNotifications: profile.emailNotifications,
      pushNotifications: profile.pushNotifications,
      winnerNotifications: profile.winnerNotifications,
      salesNotifications: profile.salesNotifications,
    },
    privacy: {
      profilePublic: profile.profilePublic,
      showRevenue: profile.showRevenue,
      showFollowers: profile.showFollowers,
    },
    pushPublicKey: env.VAPID_PUBLIC_KEY ?? null,
    openOrders: openOrders.map((o) => ({ orderNumber: o.orderNumber, productName: o.productName, status: o.status })),
    guestOrders,
  };
}

export type SettingsActionData = {
  ok: boolean;
  intent: string;
  message: string;
  errors?: Record<string, string>;
  profile?: { creatorName: string; avatarUrl?: string | null; coverImageUrl?: string | null };
};

const reply = (body: SettingsActionData, status = 200) => data<SettingsActionData>(body, { status });
const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);

  // Avatar and cover: one image file per request, typed from its bytes, at most 5 MB.
  const upload = new URL(request.url).searchParams.get("upload");
  if (upload === "avatar" || upload === "cover") {
    const failed = upload === "avatar" ? SETTINGS_MESSAGES.avatarFailed : SETTINGS_MESSAGES.coverFailed;
    try {
      const body = await readUpload(request, IMAGE_MAX_BYTES, SETTINGS_MESSAGES.imageSize);
      const { url } = await replaceProfileImage(env, user.id, upload, body);
      return reply({
        ok: true,
        intent: upload,
        message: SETTINGS_MESSAGES.uploaded,
        profile: {
          creatorName: user.creatorName,
          ...(upload === "avatar" ? { avatarUrl: url } : { coverImageUrl: url }),
        },
      });
    } catch (error) {
      if (error instanceof UploadError)
        return reply({ ok: false, intent: upload, message: failed(error.message) }, error.status);
      throw error;
    }
  }
  if (upload !== null) return reply({ ok: false, intent: "upload", message: "Unknown upload" }, 400);

  const form = await request.formData();
  const intent = text(form, "intent");
  switch (intent) {
    case "profile": {
      const parsed = ProfileSchema.safeParse({
        creatorName: text(form, "creatorName"),
        category: text(form, "category"),
        bio: text(form, "bio"),
        website: text(form, "website"),
      });
      if (!parsed.success) {
        return reply(
          { ok: false, intent, message: SETTINGS_MESSAGES.saveFailed, errors: fieldErrors(parsed.error) },
          400,
        );
      }
      if (!(await updateProfileFields(db, user.id, parsed.data))) {
        return reply({ ok: false, intent, message: SETTINGS_MESSAGES.saveFailed }, 404);
      }
      return reply({
        ok: true,
        intent,
        message: SETTINGS_MESSAGES.saved,
        profile: { creatorName: parsed.data.creatorName },
      });
    }
    case "shipping": {
      const parsed = ShippingSchema.safeParse({ countries: form.getAll("countries") });
      if (!parsed.success) {
        return reply(
          {
            ok: false,
            intent,
            message: SETTINGS_MESSAGES.shippingFailed,
            errors: { countries: SETTINGS_MESSAGES.shippingUnknown },
          },
          400,
        );
      }
      await replaceShippingCountries(db, user.id, parsed.data.countries);
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.shippingSaved });
    }
    case "notifications": {
      const parsed = NotificationsSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return reply({ ok: false, intent, message: SETTINGS_MESSAGES.saveFailed }, 400);
      await updateNotificationSwitches(db, user.id, parsed.data);
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.saved });
    }
    case "privacy": {
      const parsed = PrivacySchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return reply({ ok: false, intent, message: SETTINGS_MESSAGES.saveFailed }, 400);
      await updatePrivacySwitches(db, user.id, parsed.data);
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.saved });
    }
    case "push-subscribe": {
      const parsed = PushSubscriptionSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return reply({ ok: false, intent, message: SETTINGS_MESSAGES.pushInvalid }, 400);
      const saved = await subscribeBrowser(env, db, request, user.id, parsed.data);
      if (!saved.ok) return reply({ ok: false, intent, message: saved.message }, 400);
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.pushSaved });
    }
    case "push-unsubscribe": {
      const endpoint = text(form, "endpoint");
      if (!endpoint || endpoint.length > 1000)
        return reply({ ok: false, intent, message: SETTINGS_MESSAGES.pushInvalid }, 400);
      await deletePushSubscription(db, endpoint, user.id);
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.pushRemoved });
    }
    case "password": {
      const parsed = refusingCommonPasswords(ChangePasswordSchema, "newPassword").safeParse(Object.fromEntries(form));
      if (!parsed.success)
        return reply(
          { ok: false, intent, message: SETTINGS_MESSAGES.saveFailed, errors: fieldErrors(parsed.error) },
          400,
        );
      if (!(await isCurrentPassword(env, user.id, parsed.data.currentPassword))) {
        return reply(
          {
            ok: false,
            intent,
            message: SETTINGS_MESSAGES.currentPassword,
            errors: { currentPassword: SETTINGS_MESSAGES.currentPassword },
          },
          400,
        );
      }
      await changePassword(env, request, user.id, parsed.data.newPassword);
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.passwordChanged });
    }
    case "email": {
      const parsed = ChangeEmailSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success)
        return reply(
          { ok: false, intent, message: SETTINGS_MESSAGES.saveFailed, errors: fieldErrors(parsed.error) },
          400,
        );
      if (!(await isCurrentPassword(env, user.id, parsed.data.currentPassword))) {
        return reply(
          {
            ok: false,
            intent,
            message: SETTINGS_MESSAGES.currentPassword,
            errors: { currentPassword: SETTINGS_MESSAGES.currentPassword },
          },
          400,
        );
      }
      const outcome = await requestEmailChange(env, new URL(request.url).origin, user, parsed.data.newEmail);
      if (!outcome.ok)
        return reply(
          { ok: false, intent, message: outcome.message, errors: { [outcome.field]: outcome.message } },
          409,
        );
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.emailSent(parsed.data.newEmail) });
    }
    case "claim-orders": {
      // Guest orders paid with this address become the account's only through a link mailed to it (decision 410).
      const claimable = await countClaimableGuestOrders(db, user.id);
      if (claimable === 0) return reply({ ok: false, intent, message: SETTINGS_MESSAGES.noGuestOrders }, 409);
      if (await mayMailAccount(db, "order_claim", user.email)) {
        await sendOrderClaimMail(
          env,
          db,
          { userId: user.id, email: user.email },
          claimable,
          new URL(request.url).origin,
        );
      }
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.guestOrdersLinkSent(user.email) });
    }
    case "delete": {
      const parsed = DeleteAccountSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success)
        return reply(
          { ok: false, intent, message: SETTINGS_MESSAGES.deleteConfirm, errors: fieldErrors(parsed.error) },
          400,
        );
      if (!(await isCurrentPassword(env, user.id, parsed.data.currentPassword))) {
        return reply(
          {
            ok: false,
            intent,
            message: SETTINGS_MESSAGES.currentPassword,
            errors: { currentPassword: SETTINGS_MESSAGES.currentPassword },
          },
          400,
        );
      }
      await deleteAccount(env, user.id);
      const headers = new Headers();
      headers.append("Set-Cookie", hostCookie(SESSION_COOKIE, "", 0));
      headers.append("Set-Cookie", flashToastCookie({ message: "Your account has been deleted.", type: "success" }));
      throw redirect("/", { headers });
    }
    default:
      return reply({ ok: false, intent, message: "Unknown action" }, 400);
  }
}

/** Shows each answer of a settings form as a toast, and tells the nav bar when the profile changed. */
function useSettingsFetcher(key: string) {
  const fetcher = useFetcher<SettingsActionData>({ key });
  const toast = useToast();
  const seen = useRef<SettingsActionData | undefined>(undefined);
  useEffect(() => {
    const result = fetcher.data;
    if (!result || seen.current === result || fetcher.state !== "idle") return;
    seen.current = result;
    if (result.intent !== "avatar" && result.intent !== "cover") {
      toast({ message: result.message, type: result.ok ? "success" : "error" });
    } else if (!result.ok) {
      toast({ message: result.message, type: "error" });
    }
    if (result.ok && result.profile) {
      window.dispatchEvent(new CustomEvent(PROFILE_UPDATED_EVENT, { detail: result.profile }));
    }
  }, [fetcher.data, fetcher.state, toast]);
  return fetcher;
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { tab } = loaderData;
  return (
    <Page title="Settings" back={{ to: "/dashboard", label: "Back to Dashboard" }} width="narrow">
      <nav aria-label="Settings sections" className="relative mb-6 overflow-x-auto border-b border-gray-200">
        <ul className="-mb-px flex gap-5">
          {TABS.map((t) => (
            <li key={t.id}>
              <Link
                to={t.id === "profile" ? "/settings" : `/settings?tab=${t.id}`}
                aria-current={tab === t.id ? "page" : undefined}
                className={`inline-block border-b-2 px-1 py-3 text-sm font-semibold whitespace-nowrap ${
                  tab === t.id
                    ? "border-brand-600 text-brand-700"
                    : "border-transparent text-gray-600 hover:text-gray-900"
                }`}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {tab === "profile" ? <ProfileTab data={loaderData} /> : null}
      {tab === "shipping" ? <ShippingTab data={loaderData} /> : null}
      {tab === "notifications" ? <NotificationsTab data={loaderData} /> : null}
      {tab === "privacy" ? <PrivacyTab data={loaderData} /> : null}
      {tab === "account" ? <AccountTab data={loaderData} /> : null}
    </Page>
  );
}

type Data = Route.ComponentProps["loaderData"];

function SaveButton({ pending, children = "Save Changes" }: { pending: boolean; children?: ReactNode }) {
  return (
    <Button type="submit" disabled={pending}>
      {pending ? "Saving..." : children}
    </Button>
  );
}

// --- Profile -------------------------------------------------------------------------------------------------------

function ProfileTab({ data: d }: { data: Data }) {
  const fetcher = useSettingsFetcher("settings-profile");
  const errors = fetcher.data?.intent === "profile" ? (fetcher.data.errors ?? {}) : {};
  const categories = PROFILE_CATEGORIES.map((c) => ({ value: c, label: c }));
  const knownCategory = (PROFILE_CATEGORIES as readonly string[]).includes(d.profile.category);
  return (
    <div className="space-y-6">
      <Card>
        <h2 className="font-semibold text-gray-900">Profile images</h2>
        <div className="mt-4 grid gap-6 sm:grid-cols-2">
          <ImageUpload kind="avatar" label="Avatar" current={d.profile.avatarUrl} />
          <ImageUpload kind="cover" label="Cover image" current={d.profile.coverImageUrl} />
        </div>
      </Card>
      <Card>
        <h2 className="font-semibold text-gray-900">Profile</h2>
        <fetcher.Form method="post" className="mt-4 space-y-4" noValidate={false}>
          <input type="hidden" name="intent" value="profile" />
          <FormError>{errors.form}</FormError>
          <Field
            label="Creator name"
            name="creatorName"
            required
            maxLength={80}
            defaultValue={d.profile.creatorName}
            error={errors.creatorName}
          />
          <div>
            <p className="block text-sm font-medium text-gray-700">E-mail</p>
            <p className="mt-1 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gray-200 bg-gray-50 px-3 py-2 text-sm text-gray-800">
              <span className="break-all">{d.email}</span>
              <Link to="/settings?tab=account" className="font-semibold text-brand-700 hover:underline">
                Change e-mail
              </Link>
            </p>
          </div>
          <SelectField
            label="Category"
            name="category"
            required
            options={categories}
            placeholder={knownCategory ? undefined : "Choose a category"}
            defaultValue={knownCategory ? d.profile.category : ""}
            error={errors.category}
          />
          <div>
            <label htmlFor="bio" className="block text-sm font-medium text-gray-700">
              Bio
            </label>
            <textarea
              id="bio"
              name="bio"
              rows={4}
              maxLength={BIO_MAX_LENGTH}
              defaultValue={d.profile.bio}
              aria-invalid={errors.bio ? true : undefined}
              className="mt-1 block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
            />
            {errors.bio ? <p className="mt-1 text-sm text-red-600">{errors.bio}</p> : null}
          </div>
          <Field
            label="Website"
            name="website"
            type="url"
            placeholder="https://"
            defaultValue={d.profile.website}
            error={errors.website}
          />
          <p className="text-sm text-gray-600">Country: {d.profile.country}</p>
          <SaveButton pending={fetcher.state !== "idle"} />
        </fetcher.Form>
      </Card>
    </div>
  );
}

function ImageUpload({ kind, label, current }: { kind: "avatar" | "cover"; label: string; current: string | null }) {
  const fetcher = useSettingsFetcher(`settings-${kind}`);
  const toast = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  const [badge, setBadge] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const url =
    (fetcher.data?.ok && (kind === "avatar" ? fetcher.data.profile?.avatarUrl : fetcher.data.profile?.coverImageUrl)) ||
    current;
  const failed = kind === "avatar" ? SETTINGS_MESSAGES.avatarFailed : SETTINGS_MESSAGES.coverFailed;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data?.ok) return;
    setBadge(true);
    const timer = setTimeout(() => setBadge(false), 2000);
    return () => clearTimeout(timer);
  }, [fetcher.data, fetcher.state]);

  function choose(file: File | undefined) {
    if (!file) return;
    setLocalError(null);
    let problem: string | null = null;
    if (!file.type.startsWith("image/")) problem = SETTINGS_MESSAGES.imageType;
    else if (file.size > IMAGE_MAX_BYTES) problem = SETTINGS_MESSAGES.imageSize;
    if (problem) {
      setLocalError(failed(problem));
      toast({ message: failed(problem), type: "error" });
      if (inputRef.current) inputRef.current.value = "";
      return;
    }
    const form = new FormData();
    form.set("file", file);
    fetcher.submit(form, { method: "post", action: `/settings?upload=${kind}`, encType: "multipart/form-data" });
  }

  const error = localError ?? (fetcher.data && !fetcher.data.ok ? fetcher.data.message : null);
  return (
    <div>
      <p className="text-sm font-medium text-gray-700">{label}</p>
      <div
        className={`mt-2 overflow-hidden bg-gray-100 ${kind === "avatar" ? "h-24 w-24 rounded-full" : "h-24 w-full rounded-lg"}`}
      >
        {url ? (
          <img
            src={url}
            alt={`Current ${label.toLowerCase()}`}
            data-testid={`${kind}-preview`}
            className="h-full w-full object-cover"
          />
        ) : null}
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <label className="cursor-pointer rounded-lg border border-gray-300 bg-white px-3 py-1.5 text-sm font-semibold text-gray-800 shadow-sm hover:bg-gray-50">
          {fetcher.state !== "idle" ? "Uploading..." : `Upload ${label.toLowerCase()}`}
          <input
            ref={inputRef}
            type="file"
            accept="image/*"
            name={`${kind}-file`}
            className="sr-only"
            disabled={fetcher.state !== "idle"}
            onChange={(event) => choose(event.currentTarget.files?.[0])}
          />
        </label>
        {badge ? <Badge tone="green">{SETTINGS_MESSAGES.uploaded}</Badge> : null}
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

// --- Shipping ------------------------------------------------------------------------------------------------------

function ShippingTab({ data: d }: { data: Data }) {
  const fetcher = useSettingsFetcher("settings-shipping");
  const [filter, setFilter] = useState("");
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(d.shipping));
  const needle = filter.trim().toLowerCase();
  const error = fetcher.data?.intent === "shipping" ? fetcher.data.errors?.countries : undefined;
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">Shipping countries</h2>
      <p className="mt-1 text-sm text-gray-600">
        The countries you ship physical products to. Buyers elsewhere see your shop as coming soon and cannot check out.
        {chosen.size === 0
          ? ` With none chosen you ship to ${d.profile.country} only.`
          : ` You ship to ${chosen.size} ${chosen.size === 1 ? "country" : "countries"}.`}
      </p>
      <fetcher.Form method="post" className="mt-4 space-y-3">
        <input type="hidden" name="intent" value="shipping" />
        <Field
          label="Find a country"
          name="country-filter"
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
        <fieldset>
          <legend className="sr-only">Countries you ship to</legend>
          <ul className="grid max-h-96 gap-1 overflow-y-auto rounded-lg border border-gray-200 p-2 sm:grid-cols-2">
            {SHIPPING_COUNTRIES.map((c) => (
              <li
                key={c.code}
                hidden={needle !== "" && !c.name.toLowerCase().includes(needle) && c.code.toLowerCase() !== needle}
              >
                <label className="flex items-center gap-2 rounded px-2 py-1 text-sm hover:bg-gray-50">
                  <input
                    type="checkbox"
                    name="countries"
                    value={c.code}
                    checked={chosen.has(c.code)}
                    onChange={(event) => {
                      const on = event.currentTarget.checked;
                      setChosen((set) => {
                        const next = new Set(set);
                        if (on) next.add(c.code);
                        else next.delete(c.code);
                        return next;
                      });
                    }}
                  />
                  {c.name}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {error ? <p className="text-sm text-red-600">{error}</p> : null}
        <SaveButton pending={fetcher.state !== "idle"}>Save Shipping Countries</SaveButton>
      </fetcher.Form>
    </Card>
  );
}

// --- Switches ------------------------------------------------------------------------------------------------------

function Switch({
  name,
  label,
  hint,
  defaultChecked,
}: {
  name: string;
  label: string;
  hint: string;
  defaultChecked: boolean;
}) {
  return (
    <label className="flex items-start justify-between gap-4 py-3">
      <span>
        <span className="block text-sm font-medium text-gray-900">{label}</span>
        <span className="block text-sm text-gray-600">{hint}</span>
      </span>
      <input
        type="checkbox"
        role="switch"
        name={name}
        defaultChecked={defaultChecked}
        className="mt-1 h-5 w-5 shrink-0 accent-brand-600"
      />
    </label>
  );
}

function NotificationsTab({ data: d }: { data: Data }) {
  const fetcher = useSettingsFetcher("settings-notifications");
  const n = d.notifications;
  return (
    <div className="space-y-6">
      <Card>
        <h2 className="font-semibold text-gray-900">Notifications</h2>
        <fetcher.Form method="post" className="mt-2">
          <input type="hidden" name="intent" value="notifications" />
          <div className="divide-y divide-gray-100">
            <Switch
              name="emailNotifications"
              label="E-mail notifications"
              hint="Sales and wins by e-mail."
              defaultChecked={n.emailNotifications}
            />
            <Switch
              name="pushNotifications"
              label="Push notifications"
              hint="Sales and wins on the devices where you turned push on."
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
          </div>
          <p className="mt-2 text-sm text-gray-600">
            Mail your account needs (password reset, e-mail confirmation, refunds, return decisions and payout results)
            is always sent.
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

/** Turns Web Push on or off for this browser: a subscription through the service worker, stored on the server. */
function PushDevice({ publicKey }: { publicKey: string | null }) {
  const fetcher = useSettingsFetcher("settings-push");
  const toast = useToast();
  const [state, setState] = useState<"unknown" | "unsupported" | "off" | "on" | "blocked">("unknown");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!publicKey || !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      setState("unsupported");
      return;
    }
    if (Notification.permission === "denied") {
      setState("blocked");
      return;
    }
    navigator.serviceWorker.ready
      .then((registration) => registration.pushManager.getSubscription())
      .then((sub) => setState(sub ? "on" : "off"))
      .catch(() => setState("unsupported"));
  }, [publicKey]);

  async function turnOn() {
    if (!publicKey) return;
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "blocked" : "off");
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
        { method: "post", action: "/settings?tab=notifications" },
      );
      setState("on");
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
          { method: "post", action: "/settings?tab=notifications" },
        );
        await sub.unsubscribe();
      }
      setState("off");
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

function PrivacyTab({ data: d }: { data: Data }) {
  const fetcher = useSettingsFetcher("settings-privacy");
  const p = d.privacy;
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">Privacy</h2>
      <fetcher.Form method="post" className="mt-2">
        <input type="hidden" name="intent" value="privacy" />
        <div className="divide-y divide-gray-100">
          <Switch
            name="profilePublic"
            label="Public profile"
            hint="Show your profile on the home page, in Explore and in search. When off, others see that your profile is private."
            defaultChecked={p.profilePublic}
          />
          <Switch
            name="showRevenue"
            label="Show revenue"
            hint="Show your total revenue on your public profile."
            defaultChecked={p.showRevenue}
          />
          <Switch
            name="showFollowers"
            label="Show followers"
            hint="Show how many tribes follow you on your public profile."
            defaultChecked={p.showFollowers}
          />
        </div>
        <div className="mt-4">
          <SaveButton pending={fetcher.state !== "idle"} />
        </div>
      </fetcher.Form>
    </Card>
  );
}

// --- Account -------------------------------------------------------------------------------------------------------

function AccountTab({ data: d }: { data: Data }) {
  const password = useSettingsFetcher("settings-password");
  const email = useSettingsFetcher("settings-email");
  const remove = useSettingsFetcher("settings-delete");
  const claim = useSettingsFetcher("settings-claim-orders");
  const passwordErrors = password.data?.intent === "password" ? (password.data.errors ?? {}) : {};
  const emailErrors = email.data?.intent === "email" ? (email.data.errors ?? {}) : {};
  const deleteErrors = remove.data?.intent === "delete" ? (remove.data.errors ?? {}) : {};
  const passwordForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (password.state === "idle" && password.data?.ok) passwordForm.current?.reset();
  }, [password.state, password.data]);
  const [typed, setTyped] = useState("");
  const exportLinks = useMemo(
    () => [
      { href: "/settings/export?format=json", label: "Download JSON" },
      { href: "/settings/export?format=zip", label: "Download ZIP of CSV files" },
    ],
    [],
  );

  return (
    <div className="space-y-6">
      <Card>
        <h2 className="font-semibold text-gray-900">Change password</h2>
        <password.Form ref={passwordForm} method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="password" />
          <Field
            label="Current password"
            name="currentPassword"
            id="password-current"
            type="password"
            required
            autoComplete="current-password"
            error={passwordErrors.currentPassword}
          />
          <NewPasswordField label="New password" name="newPassword" error={passwordErrors.newPassword} />
          <Field
            label="Confirm new password"
            name="confirmPassword"
            type="password"
            required
            autoComplete="new-password"
            error={passwordErrors.confirmPassword}
          />
          <SaveButton pending={password.state !== "idle"}>Change Password</SaveButton>
        </password.Form>
      </Card>

      <Card>
        <h2 className="font-semibold text-gray-900">Change e-mail</h2>
        <p className="mt-1 text-sm text-gray-600">
          Your e-mail is <span className="font-medium text-gray-900">{d.email}</span>. We send a link to the new
          address; it changes when you open it.
        </p>
        {email.data?.ok ? (
          <p role="status" className="mt-3 rounded-lg bg-green-50 px-3 py-2 text-sm text-green-800">
            {email.data.message}
          </p>
        ) : null}
        <email.Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="email" />
          <Field
            label="New e-mail"
            name="newEmail"
            type="email"
            required
            autoComplete="email"
            error={emailErrors.newEmail}
          />
          <Field
            label="Current password"
            name="currentPassword"
            id="email-current"
            type="password"
            required
            autoComplete="current-password"
            error={emailErrors.currentPassword}
          />
          <SaveButton pending={email.state !== "idle"}>Send Confirmation Link</SaveButton>
        </email.Form>
      </Card>

      {d.guestOrders > 0 ? (
        <Card>
          <h2 className="font-semibold text-gray-900">Orders paid as a guest</h2>
          <p className="mt-1 text-sm text-gray-600">
            {d.guestOrders} order{d.guestOrders === 1 ? " was" : "s were"} paid as a guest with {d.email}. We can e-mail
            you a link that adds {d.guestOrders === 1 ? "it" : "them"} to your account.
          </p>
          <claim.Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="claim-orders" />
            <SaveButton pending={claim.state !== "idle"}>Send me the link</SaveButton>
          </claim.Form>
        </Card>
      ) : null}

      <Card>
        <h2 className="font-semibold text-gray-900">Your data</h2>
        <p className="mt-1 text-sm text-gray-600">
          Download every record of your account at once: your profile, products, games, pools, orders, entries, messages
          and payouts.
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          {exportLinks.map((link) => (
            <a
              key={link.href}
              href={link.href}
              download
              className="rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm font-semibold text-gray-800 shadow-sm hover:bg-gray-50"
            >
              {link.label}
            </a>
          ))}
        </div>
      </Card>

      <Card className="border-red-200">
        <h2 className="font-semibold text-red-700">Delete account</h2>
        <p className="mt-1 text-sm text-gray-600">
          Your profile, images and personal details are erased and you are signed out everywhere. Your name, e-mail,
          phone and addresses are erased from your closed orders at once; the amounts paid and refunded stay, as the law
          requires. Prize pool records and money owed to you stay until they are settled. As a host, your open prize
          pool closes now and is drawn as usual, your games end, and your group buy ends by its rules.
        </p>
        {d.openOrders.length > 0 ? (
          <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-semibold">
              These orders are still open, so their seller keeps your name and address until each one closes (delivered
              and past its return window, with no open return or dispute); then they are erased too:
            </p>
            <ul className="mt-2 list-disc pl-5">
              {d.openOrders.map((o) => (
                <li key={o.orderNumber}>
                  {o.orderNumber}: {o.productName} ({o.status.replace(/_/g, " ")})
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <remove.Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="delete" />
          <Field
            label={`Type ${DELETE_CONFIRMATION_WORD} to confirm`}
            name="confirmation"
            required
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            error={deleteErrors.confirmation}
          />
          <Field
            label="Current password"
            name="currentPassword"
            id="delete-current"
            type="password"
            required
            autoComplete="current-password"
            error={deleteErrors.currentPassword}
          />
          <Button
            type="submit"
            variant="danger"
            disabled={typed !== DELETE_CONFIRMATION_WORD || remove.state !== "idle"}
          >
            {remove.state !== "idle" ? "Deleting..." : "Delete My Account"}
          </Button>
        </remove.Form>
      </Card>
    </div>
  );
}
