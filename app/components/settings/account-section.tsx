import { useEffect, useMemo, useRef, useState } from "react";
import { Field, NewPasswordField } from "~/components/form";
import { Button, Card } from "~/components/page";
import { DELETE_CONFIRMATION_WORD, type SettingsAccountData, type SettingsPageData } from "~/lib/settings-form";
import { SaveButton, SETTINGS_ACTION, useSettingsFetcher } from "./settings-ui";

export function AccountSection({ data: d, account: a }: { data: SettingsPageData; account: SettingsAccountData }) {
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
        <password.Form ref={passwordForm} method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4">
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
        <email.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4">
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

      {a.guestOrders > 0 ? (
        <Card>
          <h2 className="font-semibold text-gray-900">Orders paid as a guest</h2>
          <p className="mt-1 text-sm text-gray-600">
            {a.guestOrders} order{a.guestOrders === 1 ? " was" : "s were"} paid as a guest with {d.email}. We can e-mail
            you a link that adds {a.guestOrders === 1 ? "it" : "them"} to your account.
          </p>
          <claim.Form method="post" action={SETTINGS_ACTION} className="mt-3">
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
        {a.openOrders.length > 0 ? (
          <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="font-semibold">
              These orders are still open, so their seller keeps your name and address until each one closes (delivered
              and past its return window, with no open return or dispute); then they are erased too:
            </p>
            <ul className="mt-2 list-disc pl-5">
              {a.openOrders.map((o) => (
                <li key={o.orderNumber}>
                  {o.orderNumber}: {o.productName} ({o.status.replace(/_/g, " ")})
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <remove.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4">
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
