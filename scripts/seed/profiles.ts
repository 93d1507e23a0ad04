// Profiles, made after the orders so that a host's totals are known: avatar and cover art, followers, sales.
import { DEFAULT_PROFILE_CATEGORY } from "../../app/domain/catalog";
import { DEFAULT_PROFILE_POOL_TARGET_CENTS } from "../../app/domain/pool";
import { regionsOf } from "../../app/domain/regions";
import type { Seed } from "./context";
import { avatarSvg, coverSvg } from "./media";

export function addProfiles(seed: Seed): void {
  const { rows, hosts, uploads } = seed;
  const followers = new Map(hosts.map((h) => [h.id, h.members.length]));
  // A Singaporean fan who chose to see prices in US dollars (docs/product.md#currency): every page shows USD to them.
  const choseUsd = seed.fans.find((f) => f.country === "SG")?.id;
  for (const person of seed.people) {
    const host = hosts.find((h) => h.id === person.id);
    const hostOrders = host ? rows.orders.filter((o) => o.hostId === host.id) : [];
    const avatarUrl = host
      ? host.avatarUrl
      : uploads.svg(`avatars/${person.id}.svg`, avatarSvg(person.name, person.palette[0], person.palette[1]));
    rows.userProfiles.push({
      userId: person.id,
      slug: host?.spec.slug ?? null,
      creatorName: person.name,
      email: person.email,
      bio: host?.spec.bio ?? null,
      category: host?.spec.category ?? DEFAULT_PROFILE_CATEGORY,
      website: host?.spec.website ?? null,
      avatarUrl,
      coverImageUrl: host
        ? uploads.svg(`covers/${host.id}.svg`, coverSvg(host.name, host.spec.palette[0], host.spec.palette[1]))
        : null,
      verified: host?.spec.verified ?? false,
      status: "active",
      followersCount: followers.get(person.id) ?? 0,
      totalRevenueCents: hostOrders.reduce((sum, o) => sum + o.amountCents, 0),
      totalSales: hostOrders.length,
      currency: "USD",
      prizePoolTargetCents: DEFAULT_PROFILE_POOL_TARGET_CENTS,
      profilePublic: person.public,
      country: person.country,
      region: seededRegion(person),
      displayCurrency: person.id === choseUsd ? "USD" : null,
      createdAt: person.createdAt,
      updatedAt: person.createdAt,
    });
  }
  // No payout method is seeded: a payout account is a Stripe Connect account (locally the test provider's), which
  // the demo host connects from /payouts like any host.
}

/**
 * The region of a seeded fan or host whose country has a region list (docs/product.md#eligibility): one of the
 * country's regions, chosen from the account's id so the seed's random sequence is untouched.
 */
function seededRegion(person: { id: string; country: string }): string | null {
  const regions = regionsOf(person.country);
  if (regions.length === 0) return null;
  return regions[parseInt(person.id.slice(0, 6), 16) % regions.length]!.code;
}
