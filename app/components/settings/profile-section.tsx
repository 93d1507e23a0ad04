import { useEffect, useRef, useState } from "react";
import { Link } from "~/components/link";
import { Field, FormError, SelectField } from "~/components/form";
import { Badge, Card } from "~/components/page";
import { useToast } from "~/components/toaster";
import { IMAGE_MAX_BYTES } from "~/domain/catalog";
import { CURRENCIES } from "~/domain/currency";
import {
  BIO_MAX_LENGTH,
  PROFILE_CATEGORIES,
  SETTINGS_MESSAGES,
  type SettingsActionData,
  type SettingsPageData,
} from "~/lib/settings-form";
import { SaveButton, SETTINGS_ACTION, useSettingsFetcher } from "./settings-ui";

export function ProfileSection({ data: d }: { data: SettingsPageData }) {
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
        <fetcher.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4" noValidate={false}>
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
              <Link to="/settings/account" className="font-semibold text-brand-700 hover:underline">
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
      <CurrencyCard data={d} />
    </div>
  );
}

/** The currency every page shows prices in (decision 620): chosen here or on any page's currency select. */
function CurrencyCard({ data: d }: { data: SettingsPageData }) {
  const fetcher = useSettingsFetcher("settings-currency");
  const error = fetcher.data?.intent === "currency" ? fetcher.data.errors?.currency : undefined;
  const options = [
    { value: "", label: `My country's currency (${d.profile.countryCurrency})` },
    ...CURRENCIES.map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` })),
  ];
  return (
    <Card>
      <h2 className="font-semibold text-gray-900">Currency</h2>
      <fetcher.Form method="post" action={SETTINGS_ACTION} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="currency" />
        <SelectField
          label="Show prices in"
          name="currency"
          options={options}
          defaultValue={d.profile.currency}
          error={error}
        />
        {/* Named for what it saves: the profile card above has the page's "Save Changes". */}
        <SaveButton pending={fetcher.state !== "idle"}>Save currency</SaveButton>
      </fetcher.Form>
    </Card>
  );
}

function ImageUpload({ kind, label, current }: { kind: "avatar" | "cover"; label: string; current: string | null }) {
  const fetcher = useSettingsFetcher(`settings-${kind}`);
  const toast = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  // The answer whose "Uploaded!" badge has had its two seconds; the badge shows for a newer successful answer.
  const [badgeShown, setBadgeShown] = useState<SettingsActionData | undefined>(undefined);
  const [localError, setLocalError] = useState<string | null>(null);
  const url =
    (fetcher.data?.ok && (kind === "avatar" ? fetcher.data.profile?.avatarUrl : fetcher.data.profile?.coverImageUrl)) ||
    current;
  const failed = kind === "avatar" ? SETTINGS_MESSAGES.avatarFailed : SETTINGS_MESSAGES.coverFailed;

  const badge = fetcher.state === "idle" && fetcher.data?.ok === true && badgeShown !== fetcher.data;
  useEffect(() => {
    if (!badge) return;
    const shown = fetcher.data;
    const timer = setTimeout(() => setBadgeShown(shown), 2000);
    return () => clearTimeout(timer);
  }, [badge, fetcher.data]);

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
