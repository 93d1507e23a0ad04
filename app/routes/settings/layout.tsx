import { data, Outlet, redirect, useLocation } from "react-router";
import { TabNav } from "~/components/tab-nav";
import { Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getOwnProfile, listShippingCountryCodes, setProfileCurrency } from "~/db/queries/profiles.server";
import {
  deletePushSubscription,
  replaceShippingCountries,
  updateNotificationSwitches,
  updatePrivacySwitches,
  updateProfileFields,
} from "~/db/queries/settings.server";
import { IMAGE_MAX_BYTES } from "~/domain/catalog";
import { countryByCode, isSupportedCurrency } from "~/domain/currency";
import { CURRENCY_CHOICE_MESSAGES, ProfileCurrencySchema } from "~/domain/currency-choice";
import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { hostCookie } from "~/lib/cookies.server";
import { SESSION_COOKIE } from "~/lib/session.server";
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
  NotificationsSchema,
  PrivacySchema,
  ProfileSchema,
  PushSubscriptionSchema,
  sectionOfTab,
  SETTINGS_MESSAGES,
  SETTINGS_SECTIONS,
  ShippingSchema,
  type SettingsActionData,
  type SettingsPageData,
  type SettingsSection,
} from "~/lib/settings-form";
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
import { responsiblePlayAction } from "~/lib/responsible-play.server";
import { subscribeBrowser } from "~/lib/push-subscriptions.server";
import { readUpload, UploadError } from "~/lib/uploads.server";
import { fieldErrors } from "~/lib/validation";
import type { Route } from "./+types/layout";

export const meta: Route.MetaFunction = () => pageMeta("Settings");

export async function loader({ request, context }: Route.LoaderArgs): Promise<SettingsPageData> {
  const user = await requireUser(context, request);
  const env = getEnv(context);
  const db = getDb(env);
  const [profile, shipping] = await Promise.all([getOwnProfile(db, user.id), listShippingCountryCodes(db, user.id)]);
  if (!profile) throw new Response("Profile not found", { status: 404 });
  return {
    email: user.email,
    profile: {
      creatorName: profile.creatorName,
      category: profile.category,
      bio: profile.bio ?? "",
      website: profile.website ?? "",
      avatarUrl: profile.avatarUrl,
      coverImageUrl: profile.coverImageUrl,
      country: countryByCode(profile.country).name,
      currency: isSupportedCurrency(profile.displayCurrency) ? profile.displayCurrency : "",
      countryCurrency: countryByCode(profile.country).currency,
    },
    shipping,
    notifications: {
      emailNotifications: profile.emailNotifications,
      pushNotifications: profile.pushNotifications,
      winnerNotifications: profile.winnerNotifications,
      salesNotifications: profile.salesNotifications,
      poolNotifications: profile.poolNotifications,
    },
    privacy: {
      profilePublic: profile.profilePublic,
      showRevenue: profile.showRevenue,
      showFollowers: profile.showFollowers,
    },
    pushPublicKey: env.VAPID_PUBLIC_KEY ?? null,
  };
}

const reply = (body: SettingsActionData, status = 200) => data<SettingsActionData>(body, { status });
/** The answer to a form whose "current password" does not match (password, e-mail and delete forms). */
const wrongPassword = (intent: string) =>
  reply(
    {
      ok: false,
      intent,
      message: SETTINGS_MESSAGES.currentPassword,
      errors: { currentPassword: SETTINGS_MESSAGES.currentPassword },
    },
    400,
  );
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
    case "currency": {
      // The display currency every page shows prices in (decision 620); "" is the country's.
      const parsed = ProfileCurrencySchema.safeParse(text(form, "currency"));
      if (!parsed.success) {
        return reply(
          {
            ok: false,
            intent,
            message: CURRENCY_CHOICE_MESSAGES.unknown,
            errors: { currency: CURRENCY_CHOICE_MESSAGES.unknown },
          },
          400,
        );
      }
      await setProfileCurrency(db, user.id, parsed.data);
      return reply({ ok: true, intent, message: SETTINGS_MESSAGES.saved });
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
      if (!(await isCurrentPassword(env, user.id, parsed.data.currentPassword))) return wrongPassword(intent);
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
      if (!(await isCurrentPassword(env, user.id, parsed.data.currentPassword))) return wrongPassword(intent);
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
      if (!(await isCurrentPassword(env, user.id, parsed.data.currentPassword))) return wrongPassword(intent);
      await deleteAccount(env, user.id);
      const headers = new Headers();
      headers.append("Set-Cookie", hostCookie(SESSION_COOKIE, "", 0));
      headers.append("Set-Cookie", flashToastCookie({ message: "Your account has been deleted.", type: "success" }));
      throw redirect("/", { headers });
    }
    case "date-of-birth":
    case "region":
    case "self-exclude": {
      const result = await responsiblePlayAction(env, user, intent, form);
      return reply(result.body, result.status);
    }
    default:
      return reply({ ok: false, intent, message: "Unknown action" }, 400);
  }
}

/** The settings shell: the page, its section tabs, and the section route below. Every section's forms post to this
 * route's action (`/settings`), which answers each form by its `intent`. */
export default function SettingsLayout({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const section = shownSection(location.pathname, location.search);
  return (
    <Page title="Settings" back={{ to: "/dashboard", label: "Back to Dashboard" }} width="narrow">
      <TabNav
        label="Settings sections"
        tabs={SETTINGS_SECTIONS.map((t) => ({ ...t, href: t.id === "profile" ? "/settings" : `/settings/${t.id}` }))}
        current={section}
      />
      <Outlet context={loaderData satisfies SettingsPageData} />
    </Page>
  );
}

/** The section a settings URL shows: `/settings/<id>`, or `/settings?tab=<id>` as older links name it. */
function shownSection(pathname: string, search: string): SettingsSection {
  const child = pathname.replace(/\/+$/, "").split("/")[2];
  return child ? sectionOfTab(child) : sectionOfTab(new URLSearchParams(search).get("tab"));
}
