import { Link } from "react-router";
import { Card, Page, pageMeta } from "~/components/page";
import { getDb } from "~/db/client.server";
import { getOwnProfile } from "~/db/queries/profiles.server";
import { countryByCode } from "~/domain/currency";
import { requireUser } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/settings";

const TABS = [
  { id: "profile", label: "Profile", about: "Your creator name, bio, category, website, avatar and cover image." },
  { id: "shipping", label: "Shipping", about: "The countries you ship to." },
  { id: "notifications", label: "Notifications", about: "E-mail, push, winner and sales notifications." },
  { id: "privacy", label: "Privacy", about: "Whether your profile, revenue and follower numbers are public." },
  { id: "account", label: "Account", about: "Your e-mail and password, and a copy of your data." },
] as const;
type Tab = (typeof TABS)[number]["id"];

export const meta: Route.MetaFunction = () => pageMeta("Settings");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const profile = await getOwnProfile(getDb(getEnv(context)), user.id);
  const requested = new URL(request.url).searchParams.get("tab");
  const tab: Tab = TABS.some((t) => t.id === requested) ? (requested as Tab) : "profile";
  return {
    tab,
    profile: profile
      ? {
          creatorName: profile.creatorName,
          email: profile.email,
          category: profile.category,
          website: profile.website,
          country: countryByCode(profile.country).name,
          profilePublic: profile.profilePublic,
        }
      : null,
  };
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { tab, profile } = loaderData;
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  return (
    <Page title="Settings" back={{ to: "/dashboard", label: "Back to Dashboard" }} width="narrow">
      <nav aria-label="Settings sections" className="mb-6 overflow-x-auto border-b border-gray-200">
        <ul className="-mb-px flex gap-5">
          {TABS.map((t) => (
            <li key={t.id}>
              <Link
                to={t.id === "profile" ? "/settings" : `/settings?tab=${t.id}`}
                aria-current={tab === t.id ? "page" : undefined}
                className={`inline-block border-b-2 px-1 py-3 text-sm font-semibold whitespace-nowrap ${
                  tab === t.id ? "border-brand-600 text-brand-700" : "border-transparent text-gray-600 hover:text-gray-900"
                }`}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Card>
        <h2 className="font-semibold text-gray-900">{current.label}</h2>
        <p className="mt-1 text-sm text-gray-600">{current.about}</p>
        {tab === "profile" && profile ? (
          <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
            <Item label="Creator name" value={profile.creatorName} />
            <Item label="E-mail" value={profile.email} />
            <Item label="Category" value={profile.category} />
            <Item label="Country" value={profile.country} />
            <Item label="Website" value={profile.website ?? "—"} />
            <Item label="Profile" value={profile.profilePublic ? "Public" : "Private"} />
          </dl>
        ) : null}
      </Card>
    </Page>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-gray-500">{label}</dt>
      <dd className="font-medium break-words text-gray-900">{value}</dd>
    </div>
  );
}
