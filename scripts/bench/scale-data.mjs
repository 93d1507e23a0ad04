// `node scripts/bench/scale-data.mjs <persist dir> <out.json>`: scales the seeded demo database up for the bench
// (scripts/bench.mjs). Run after the migrations and the normal seed. It adds bench hosts (accounts, public
// profiles, shipping countries, tribe members and an open prize pool with a host deposit) until there are at least
// BENCH_HOSTS hosts, and active products (2 or 3 sizes, one image row, a shop category, likes and views) until
// there are at least BENCH_PRODUCTS, some of them on the seeded hosts so their profile pages show a full grid.
// Every row goes straight into the local D1 through wrangler's getPlatformProxy (the seed's own route), in D1
// batches of statements with at most 100 bound parameters each.
//
// Writes <out.json>: the counts and the ids the bench requests (a seeded host with products, one of its products).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { getPlatformProxy } from "wrangler";

const [dirArg, outArg] = process.argv.slice(2);
if (!dirArg || !outArg) {
  console.error("usage: node scripts/bench/scale-data.mjs <persist dir> <out.json>");
  process.exit(2);
}
const HOSTS_WANTED = Number(process.env.BENCH_HOSTS || 60);
const PRODUCTS_WANTED = Number(process.env.BENCH_PRODUCTS || 5_100);
/** Bench products added to each seeded host (so a seeded profile's shop tab is full). */
const PER_SEEDED_HOST = 30;
/** Statements per D1 batch (each batch is one round trip and one transaction). */
const BATCH = 100;
const MAX_PARAMS = 100;

const NOW = Date.now();
const DAY = 86_400_000;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(5000);
const int = (min, max) => min + Math.floor(random() * (max - min + 1));
const pick = (items) => items[Math.floor(random() * items.length)];
function sample(items, n) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, Math.min(n, copy.length));
}
const uuid = () => crypto.randomUUID();

const SHOP_CATEGORIES = ["Home & Lifestyle", "Tech & Gaming", "Fashion & Beauty", "Food & Cooking"];
const COUNTRIES = ["MY", "SG", "ID", "TH", "US", "GB", "AU", "JP", "DE", "FR", "CA", "PH"];
const CREATOR_CATEGORIES = [
  "Lifestyle & Family",
  "Tech & Gaming",
  "Fashion & Beauty",
  "Food & Cooking",
  "Fitness",
  "Art",
];
const FIRST = [
  "Aina",
  "Ben",
  "Chloe",
  "Dev",
  "Elif",
  "Farah",
  "Gus",
  "Hana",
  "Ivan",
  "Jade",
  "Kofi",
  "Lena",
  "Mika",
  "Noor",
  "Omar",
  "Priya",
];
const LAST = ["Tan", "Lopez", "Okafor", "Singh", "Kim", "Novak", "Haddad", "Silva", "Mori", "Berg", "Ali", "Reyes"];
const ADJ = [
  "Hand-made",
  "Organic",
  "Vintage",
  "Minimal",
  "Woven",
  "Glazed",
  "Recycled",
  "Limited",
  "Everyday",
  "Travel",
];
const NOUN = {
  "Home & Lifestyle": ["Candle", "Cushion Cover", "Ceramic Mug", "Throw Blanket", "Planter", "Wall Print"],
  "Tech & Gaming": ["Desk Mat", "Cable Kit", "Keycap Set", "Controller Grip", "Phone Stand", "Sticker Pack"],
  "Fashion & Beauty": ["Tote Bag", "Silk Scarf", "Lip Balm", "Beanie", "Tee", "Hair Clip Set"],
  "Food & Cooking": ["Spice Blend", "Recipe eBook", "Chilli Oil", "Tea Sampler", "Apron", "Cookie Box"],
};
const SIZE_SETS = [
  [
    ["Small", 0],
    ["Medium", 600],
    ["Large", 1200],
  ],
  [
    ["Single", 0],
    ["Pack of 3", 2400],
  ],
  [
    ["Standard", 0],
    ["Deluxe", 1500],
  ],
];

/**
 * Splits rows into multi-row INSERT statements of at most MAX_PARAMS parameters. Returns a builder, so that a
 * batch can be rebuilt as INSERT OR IGNORE for a retry (rows carry their ids, so a retry never duplicates).
 */
function inserts(db, table, columns, rows, { orIgnore = false } = {}) {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const one = `(${columns.map(() => "?").join(", ")})`;
  const builders = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    builders.push((retry) => {
      const sql = `INSERT ${orIgnore || retry ? "OR IGNORE " : ""}INTO ${table} (${columns.join(", ")}) VALUES ${chunk.map(() => one).join(", ")}`;
      return db.prepare(sql).bind(...chunk.flatMap((row) => columns.map((c) => row[c] ?? null)));
    });
  }
  return builders;
}

/**
 * Runs the statements in D1 batches. A batch whose request fails in transport ("fetch failed": the local proxy's
 * connection went away) is sent again as INSERT OR IGNORE, up to 3 times.
 */
async function runBatches(db, builders) {
  for (let i = 0; i < builders.length; i += BATCH) {
    const slice = builders.slice(i, i + BATCH);
    for (let attempt = 1; ; attempt++) {
      try {
        await db.batch(slice.map((build) => build(attempt > 1)));
        break;
      } catch (error) {
        const transport =
          error instanceof Error &&
          /fetch failed|socket|ECONNRESET|other side closed/i.test(`${error.message} ${error.cause ?? ""}`);
        if (!transport || attempt >= 3) throw error;
        console.error(`Bench data: batch ${i / BATCH + 1} failed in transport (${error.message}), retrying`);
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  }
}
async function all(db, sql, ...params) {
  return (
    await db
      .prepare(sql)
      .bind(...params)
      .all()
  ).results;
}

async function main() {
  const started = Date.now();
  const proxy = await getPlatformProxy({
    configPath: "wrangler.toml",
    persist: { path: path.resolve(dirArg, "v3") },
    remoteBindings: false,
  });
  try {
    const db = proxy.env.DB;
    const seededHosts = await all(
      db,
      `SELECT p.user_id AS id, p.avatar_url AS avatar, p.followers_count AS followers
       FROM user_profiles p WHERE p.user_id IN (SELECT DISTINCT host_id FROM products)
       ORDER BY p.followers_count DESC, p.created_at`,
    );
    if (seededHosts.length === 0) throw new Error("No seeded host found: run the seed before scaling up");
    const hostIds = new Set(seededHosts.map((h) => h.id));
    const users = await all(db, "SELECT id, password_hash FROM users ORDER BY created_at");
    const fans = users.filter((u) => !hostIds.has(u.id)).map((u) => u.id);
    const passwordHash = users[0].password_hash;
    const images = (await all(db, "SELECT url, r2_key FROM product_images ORDER BY url LIMIT 60")) ?? [];
    if (images.length === 0) images.push({ url: "/favicon.ico", r2_key: null });
    const [{ n: activeBefore }] = await all(db, "SELECT count(*) AS n FROM products WHERE status = 'active'");
    // The requested profile: the seeded host with the most followers; the requested product: its newest seeded one.
    const profileHostId = seededHosts[0].id;
    const [product] = await all(
      db,
      "SELECT id FROM products WHERE host_id = ? AND status = 'active' ORDER BY created_at DESC LIMIT 1",
      profileHostId,
    );
    if (!product) throw new Error("The seeded host has no active product");

    const rows = {
      users: [],
      profiles: [],
      shipping: [],
      members: [],
      pools: [],
      contributions: [],
      products: [],
      sizes: [],
      images: [],
      likes: [],
    };

    // --- hosts ----------------------------------------------------------------------------------------------
    const newHostCount = Math.max(0, HOSTS_WANTED - seededHosts.length);
    const newHosts = [];
    for (let i = 0; i < newHostCount; i++) {
      const id = uuid();
      const name = `${pick(FIRST)} ${pick(LAST)}`;
      const createdAt = NOW - int(60, 400) * DAY;
      const country = pick(COUNTRIES);
      const members = sample(fans, int(0, Math.min(25, fans.length)));
      newHosts.push({ id });
      rows.users.push({
        id,
        email: `bench-host-${i}@bench.example`,
        password_hash: passwordHash,
        role: "user",
        created_at: createdAt,
        updated_at: createdAt,
      });
      rows.profiles.push({
        user_id: id,
        slug: `bench-host-${i}`,
        creator_name: `${name} (${i})`,
        email: `bench-host-${i}@bench.example`,
        bio: `Bench creator ${i}: small-batch goods, every order tops up the tribe's prize pool.`,
        category: pick(CREATOR_CATEGORIES),
        website: null,
        avatar_url: pick(seededHosts).avatar,
        cover_image_url: null,
        verified: random() < 0.3 ? 1 : 0,
        status: "active",
        followers_count: members.length,
        currency: "USD",
        prize_pool_target_cents: 1_000_000,
        profile_public: 1,
        country,
        created_at: createdAt,
        updated_at: createdAt,
      });
      for (const code of new Set([country, ...sample(COUNTRIES, int(1, 3))]))
        rows.shipping.push({ host_id: id, country_code: code });
      for (const userId of members)
        rows.members.push({ user_id: userId, host_id: id, status: "active", joined_at: createdAt + int(1, 50) * DAY });
      const poolId = uuid();
      const startAt = NOW - int(3, 25) * DAY;
      const deposit = int(10, 150) * 1000;
      rows.pools.push({
        id: poolId,
        host_id: id,
        status: "open",
        target_cents: 1_000_000,
        amount_cents: deposit,
        currency: "USD",
        entries_count: 0,
        auto_renew: 1,
        start_at: startAt,
        end_at: startAt + 30 * DAY,
        created_at: startAt,
        updated_at: startAt,
      });
      rows.contributions.push({
        id: uuid(),
        pool_id: poolId,
        host_id: id,
        source_type: "host_deposit",
        source_key: `bench-deposit-${poolId}`,
        amount_cents: deposit,
        currency: "USD",
        user_id: id,
        entry_number: null,
        created_at: startAt + 3_600_000,
      });
    }

    // --- products ---------------------------------------------------------------------------------------------
    const addProduct = (hostId, status) => {
      const id = uuid();
      const shop = pick(SHOP_CATEGORIES);
      const noun = pick(NOUN[shop]);
      const digital = /eBook|Sticker/.test(noun);
      const base = int(8, 90) * 100 + pick([0, 50, 99]);
      const sizes = pick(SIZE_SETS);
      const createdAt = NOW - Math.floor(random() * 120 * DAY);
      const likers = random() < 0.35 ? sample(fans, int(1, 3)) : [];
      rows.products.push({
        id,
        host_id: hostId,
        name: `${pick(ADJ)} ${noun} No. ${rows.products.length + 1}`,
        description: `A ${noun.toLowerCase()} made in small batches. Ten per cent of every purchase goes to the creator's prize pool.`,
        category: digital ? "digital" : "physical",
        shop_category: shop,
        status,
        base_price_cents: base,
        price_min_cents: base + sizes[0][1],
        price_max_cents: base + sizes[sizes.length - 1][1],
        currency: "USD",
        like_count: likers.length,
        view_count: int(0, 5000),
        comments_count: 0,
        sales_count: 0,
        revenue_cents: 0,
        created_at: createdAt,
        updated_at: createdAt,
      });
      sizes.forEach(([name, extra], position) =>
        rows.sizes.push({
          id: uuid(),
          product_id: id,
          name,
          price_cents: base + extra,
          currency: "USD",
          dimensions: null,
          available_units: int(0, 60),
          position,
        }),
      );
      const image = pick(images);
      rows.images.push({ id: uuid(), product_id: id, url: image.url, r2_key: image.r2_key, position: 0 });
      for (const userId of likers)
        rows.likes.push({ user_id: userId, product_id: id, created_at: createdAt + int(0, 5) * DAY });
    };
    for (const host of seededHosts) for (let i = 0; i < PER_SEEDED_HOST; i++) addProduct(host.id, "active");
    const stillNeeded = Math.max(0, PRODUCTS_WANTED - activeBefore - seededHosts.length * PER_SEEDED_HOST);
    const owners = newHosts.length ? newHosts : seededHosts;
    for (let i = 0; i < stillNeeded; i++) addProduct(owners[i % owners.length].id, "active");
    // A few inactive ones, which the shop must skip.
    for (let i = 0; i < Math.ceil(stillNeeded / 50); i++) addProduct(pick(owners).id, "inactive");

    // --- write, parents first (D1 enforces foreign keys) ------------------------------------------------------
    const statements = [
      ...inserts(db, "users", ["id", "email", "password_hash", "role", "created_at", "updated_at"], rows.users),
      ...inserts(
        db,
        "user_profiles",
        [
          "user_id",
          "slug",
          "creator_name",
          "email",
          "bio",
          "category",
          "website",
          "avatar_url",
          "cover_image_url",
          "verified",
          "status",
          "followers_count",
          "currency",
          "prize_pool_target_cents",
          "profile_public",
          "country",
          "created_at",
          "updated_at",
        ],
        rows.profiles,
      ),
      ...inserts(db, "user_shipping_countries", ["host_id", "country_code"], rows.shipping),
      ...inserts(db, "tribe_members", ["user_id", "host_id", "status", "joined_at"], rows.members),
      ...inserts(
        db,
        "prize_pools",
        [
          "id",
          "host_id",
          "status",
          "target_cents",
          "amount_cents",
          "currency",
          "entries_count",
          "auto_renew",
          "start_at",
          "end_at",
          "created_at",
          "updated_at",
        ],
        rows.pools,
      ),
      ...inserts(
        db,
        "prize_pool_contributions",
        [
          "id",
          "pool_id",
          "host_id",
          "source_type",
          "source_key",
          "amount_cents",
          "currency",
          "user_id",
          "entry_number",
          "created_at",
        ],
        rows.contributions,
      ),
      ...inserts(
        db,
        "products",
        [
          "id",
          "host_id",
          "name",
          "description",
          "category",
          "shop_category",
          "status",
          "base_price_cents",
          "price_min_cents",
          "price_max_cents",
          "currency",
          "like_count",
          "view_count",
          "comments_count",
          "sales_count",
          "revenue_cents",
          "created_at",
          "updated_at",
        ],
        rows.products,
      ),
      ...inserts(
        db,
        "product_sizes",
        ["id", "product_id", "name", "price_cents", "currency", "dimensions", "available_units", "position"],
        rows.sizes,
      ),
      ...inserts(db, "product_images", ["id", "product_id", "url", "r2_key", "position"], rows.images),
      ...inserts(db, "product_likes", ["user_id", "product_id", "created_at"], rows.likes, { orIgnore: true }),
    ];
    await runBatches(db, statements);
    await db.exec("PRAGMA optimize");

    const [counts] = await all(
      db,
      `SELECT (SELECT count(*) FROM products WHERE status = 'active') AS activeProducts,
              (SELECT count(DISTINCT host_id) FROM products WHERE status = 'active') AS hosts,
              (SELECT count(*) FROM prize_pools WHERE status = 'open') AS openPools,
              (SELECT count(*) FROM product_sizes) AS sizes,
              (SELECT count(*) FROM product_images) AS images,
              (SELECT count(*) FROM product_likes) AS likes`,
    );
    const out = {
      ...counts,
      added: { hosts: rows.users.length, products: rows.products.length, statements: statements.length },
      profileHostId,
      productId: product.id,
      seconds: (Date.now() - started) / 1000,
    };
    writeFileSync(outArg, JSON.stringify(out, null, 2));
    console.log(
      `Bench data: +${rows.users.length} hosts, +${rows.products.length} products (${statements.length} statements) in ${out.seconds.toFixed(1)} s; ` +
        `now ${counts.hosts} hosts, ${counts.activeProducts} active products, ${counts.openPools} open pools.`,
    );
  } finally {
    await proxy.dispose();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
