// Users and accounts: the platform admin, the hosts and the fans, with their password hashes and signup activity.
import { DEMO_ADMIN_EMAIL, DEMO_FAN_EMAIL, DEMO_HOST_EMAIL, DEMO_PASSWORD } from "../../app/lib/demo";
import { hashPassword } from "../../app/lib/password.server";
import { FANS, HOSTS } from "./content";
import type { Account, Accounts, Host, Person, Rows } from "./context";
import { avatarSvg, type Uploads } from "./media";
import { daysAgo, int } from "./random";

const FAN_PALETTES: readonly (readonly [string, string])[] = [
  ["#6366f1", "#a855f7"],
  ["#14b8a6", "#0ea5e9"],
  ["#f97316", "#ef4444"],
  ["#84cc16", "#16a34a"],
  ["#ec4899", "#8b5cf6"],
];

const emailFor = (name: string) =>
  `${name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z\s]/g, "")
    .trim()
    .replace(/\s+/g, ".")}@demo.tribe`;

/** The people (admin, hosts, fans) in the order their rows are written. */
function makePeople(uploads: Uploads): Accounts {
  const people: Account[] = [];
  const admin = {
    id: crypto.randomUUID(),
    email: DEMO_ADMIN_EMAIL,
    name: "Tribe Platform Team",
    country: "MY",
    createdAt: daysAgo(400),
  };
  people.push({ ...admin, role: "admin", public: false, palette: ["#111827", "#4b5563"] });

  const hosts: Host[] = HOSTS.map((spec) => {
    const id = crypto.randomUUID();
    const host: Host = {
      id,
      email: spec.email,
      name: spec.name,
      country: spec.country,
      createdAt: daysAgo(int(150, 320)),
      spec,
      avatarUrl: uploads.svg(`avatars/${id}.svg`, avatarSvg(spec.name, spec.palette[0], spec.palette[1])),
      products: [],
      members: [],
    };
    people.push({ ...host, role: "user", public: true, palette: spec.palette });
    return host;
  });

  const fans: Person[] = FANS.map(([name, country], i) => {
    const fan = {
      id: crypto.randomUUID(),
      email: i === 0 ? DEMO_FAN_EMAIL : emailFor(name),
      name,
      country,
      createdAt: daysAgo(int(90, 240)),
    };
    people.push({ ...fan, role: "user", public: false, palette: FAN_PALETTES[i % FAN_PALETTES.length]! });
    return fan;
  });
  return {
    admin,
    people,
    hosts,
    fans,
    demoHost: hosts[0]!,
    demoFan: fans[0]!,
    personById: new Map(people.map((p) => [p.id, p])),
  };
}

/**
 * An adult's date of birth for the i-th account (every seeded account but the platform team's may enter prize draws,
 * docs/product.md#eligibility), spread over 1965–1999 without drawing from the seed's random sequence.
 */
const dateOfBirthOf = (i: number) =>
  `${1965 + ((i * 7) % 35)}-${String(1 + ((i * 5) % 12)).padStart(2, "0")}-${String(1 + ((i * 11) % 28)).padStart(2, "0")}`;

/** Makes every account, its user row (hashed with the app's own password hashing) and its signup activity. */
export async function addAccounts(rows: Rows, uploads: Uploads): Promise<Accounts> {
  const accounts = makePeople(uploads);
  // scrypt takes about 0.2 s of CPU per hash: the three demo accounts get their own hashes and the other demo
  // accounts (same published local password) share one, which keeps the seed fast on a small machine.
  const demoEmails = [DEMO_HOST_EMAIL, DEMO_FAN_EMAIL, DEMO_ADMIN_EMAIL];
  const [sharedHash, ...demoHashes] = await Promise.all([null, ...demoEmails].map(() => hashPassword(DEMO_PASSWORD)));
  for (const [i, p] of accounts.people.entries()) {
    const own = demoEmails.indexOf(p.email);
    const passwordHash = own >= 0 ? demoHashes[own]! : sharedHash!;
    rows.users.push({
      id: p.id,
      email: p.email,
      passwordHash,
      role: p.role,
      emailConfirmedAt: p.createdAt,
      dateOfBirth: p.role === "admin" ? null : dateOfBirthOf(i),
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
    });
    rows.userActivity.push({
      userId: p.id,
      activityType: "signup",
      activityData: { country: p.country },
      createdAt: p.createdAt,
    });
  }
  return accounts;
}
