// Demo data for local runs and browser tests: hosts with shops, pools, games and a group buy, fans with orders and
// guesses, and pools already drawn on real Bitcoin blocks. Run with `npm run seed` (after the migrations); it writes
// through wrangler's getPlatformProxy into the same local state the app reads (PERSIST_DIR, default
// .wrangler/state, whose `v3` folder holds D1 and R2), and does nothing when the database already holds its marker.
//
// Every amount the app derives is consistent with the rows inserted here: a pool's amount is the sum of its
// contributions and its entry count the number of its entries (numbered 0..n-1 by time), followers counts match
// tribe_members, product and game counters match orders and guesses, and drawn pools carry the digest, block and
// winner that the draw rule gives.
import path from "node:path";
import { getTableColumns } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { getPlatformProxy } from "wrangler";
import * as schema from "../app/db/schema";
import { conversationPair } from "../app/domain/chat";
import { entriesDigest, winnerIndex } from "../app/domain/draw";
import { commitmentHash, GENESIS_LOG_HASH } from "../app/domain/draw-commitment";
import type { OrderStatus as StoredOrderStatus } from "../app/domain/orders";
import { convertCents } from "../app/domain/currency";
import { GROUP_BUY_CURRENCY } from "../app/domain/group-buy";
import { orderNumber, voucherCode } from "../app/domain/orders";
import {
  adRevenueEarning,
  guessEntryEarning,
  poolShareEarning,
  saleShares,
  shopSaleEarning,
  type EarningRow,
} from "../app/domain/earnings";
import { drawMiniPrizes, miniPrizeCandidates } from "../app/domain/mini-prizes";
import { formatCents } from "../app/domain/money";
import { winnerMail } from "../app/domain/payouts";
import { PRIZE_SETTLEMENT_DAYS } from "../app/domain/pool";
import {
  DEFAULT_REVENUE_RULES,
  distributePool,
  poolContributionCents,
  REVENUE_RULES_SETTING_KEY,
} from "../app/domain/revenue";
import { DEMO_ADMIN_EMAIL, DEMO_FAN_EMAIL, DEMO_HOST_EMAIL, DEMO_PASSWORD } from "../app/lib/demo";
import { hashPassword } from "../app/lib/password.server";
import {
  contributionKey,
  localPaymentIntentId,
  paidLocalCheckoutRow,
} from "../app/lib/payments/shared/payment-records";
import bitcoinBlocks from "../tests/fixtures/bitcoin-blocks.json" with { type: "json" };

/** Bump when the demo data changes shape; a database holding any version is left alone. */
export const SEED_VERSION = 1;
export const SEED_MARKER_KEY = "seed_version";

const PERSIST_DIR = process.env.PERSIST_DIR || ".wrangler/state";
/** D1 allows at most 100 bound parameters per statement. */
const MAX_PARAMS = 100;

const NOW = Date.now();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const daysAgo = (days: number) => new Date(NOW - days * DAY);
const daysAhead = (days: number) => new Date(NOW + days * DAY);

// ---------------------------------------------------------------------------------------------------------------
// Deterministic choices (the ids are random UUIDs; everything else is the same on every run)

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(2026);
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;
function sample<T>(items: readonly T[], n: number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.min(n, copy.length));
}
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const token = (length: number) => Array.from({ length }, () => pick([...ALNUM])).join("");
const digits = (length: number) => Array.from({ length }, () => String(int(0, 9))).join("");

// ---------------------------------------------------------------------------------------------------------------
// Content

type Size = readonly [name: string, priceCents: number, availableUnits: number, dimensions?: string];
type Color = readonly [name: string, hex: string, availableUnits: number];
type ProductSpec = {
  name: string;
  description: string;
  category: (typeof schema.PRODUCT_CATEGORIES)[number];
  shop: (typeof schema.SHOP_CATEGORIES)[number];
  sizes: readonly Size[];
  colors?: readonly Color[];
  images: 1 | 2 | 3;
  voucherValueCents?: number;
};
type GameSpec = {
  question: string;
  description: string;
  options: readonly string[];
  correct: string;
  feeCents: number;
};
type HostSpec = {
  email: string;
  name: string;
  slug: string;
  country: string;
  city: string;
  category: string;
  bio: string;
  website: string;
  verified: boolean;
  palette: readonly [string, string];
  shipsTo: readonly string[];
  miniPrizes: readonly (readonly [name: string, amountText: string, quantityText: string])[];
  products: readonly ProductSpec[];
  games: readonly GameSpec[];
};

const HOSTS: readonly HostSpec[] = [
  {
    email: DEMO_HOST_EMAIL,
    name: "Nadia Rahman",
    slug: "nadia-home",
    country: "MY",
    city: "George Town",
    category: "Lifestyle & Family",
    bio: "Mum of three in Penang sharing the batik, rattan and kitchen pieces that survive real family life. Every order tops up our tribe's prize pool.",
    website: "https://nadiahome.example",
    verified: true,
    palette: ["#f97316", "#db2777"],
    shipsTo: ["MY", "SG", "ID", "BN", "TH"],
    miniPrizes: [
      ["Batik cushion cover of your choice", "26", "10"],
      ["15% off your next order", "15%", "unlimited"],
      ["Signed family recipe card set", "12", "25"],
    ],
    products: [
      {
        name: "Batik Cotton Cushion Cover",
        description:
          "Hand-drawn canting batik on heavy cotton, waxed and dyed in our Penang studio. Hidden zip, pre-washed so it never shrinks on you.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [
          ["40 x 40 cm", 1800, 42, "40 x 40 cm"],
          ["50 x 50 cm", 2200, 8, "50 x 50 cm"],
          ["60 x 60 cm", 2600, 0, "60 x 60 cm"],
        ],
        colors: [
          ["Indigo", "#3730a3", 30],
          ["Terracotta", "#c2410c", 12],
          ["Sage", "#84a98c", 8],
        ],
        images: 3,
      },
      {
        name: "Hand-woven Rattan Storage Basket",
        description:
          "Woven by a family workshop in Kedah from sustainably harvested rattan. Sturdy enough for toys, soft enough for laundry.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [
          ["Small", 2400, 20, "25 cm across"],
          ["Medium", 3200, 9, "35 cm across"],
          ["Large", 4100, 4, "45 cm across"],
        ],
        colors: [
          ["Natural", "#d6b98c", 21],
          ["Walnut", "#5c4033", 12],
        ],
        images: 2,
      },
      {
        name: "Kopitiam Enamel Mug Set",
        description:
          "Four chunky enamel mugs in the colours of the coffee shops we grew up in. Dishwasher safe; the chips give them character.",
        category: "physical",
        shop: "Food & Cooking",
        sizes: [["Set of 4", 2800, 35, "350 ml each"]],
        colors: [
          ["Jade", "#10b981", 20],
          ["Cream", "#fef3c7", 15],
        ],
        images: 2,
      },
      {
        name: "Family Meal Planner Printable",
        description:
          "A 12-week printable planner with shopping lists, a pantry tracker and forty of our weeknight dinners. Instant PDF download.",
        category: "digital",
        shop: "Home & Lifestyle",
        sizes: [["PDF download", 700, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
      {
        name: "Nyonya Kuih Workshop",
        description:
          "A three-hour hands-on class in our kitchen: kuih lapis, onde-onde and seri muka. Ingredients, aprons and a take-home box included.",
        category: "voucher",
        shop: "Food & Cooking",
        sizes: [
          ["Single seat", 4500, 12],
          ["Parent + child", 7000, 6],
        ],
        images: 2,
        voucherValueCents: 5000,
      },
      {
        name: "Linen Table Runner",
        description:
          "Stone-washed linen with a hand-stitched hem. Softens with every wash and hides curry stains better than you'd think.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [
          ["150 cm", 1900, 15, "150 x 35 cm"],
          ["200 cm", 2400, 0, "200 x 35 cm"],
        ],
        colors: [
          ["Oat", "#e7dcc8", 9],
          ["Charcoal", "#374151", 6],
        ],
        images: 1,
      },
      {
        name: "Kids' Batik Apron",
        description:
          "A wipe-clean batik apron with a big front pocket for little bakers. Adjustable neck strap grows with them.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [
          ["3-5 years", 1400, 22],
          ["6-9 years", 1600, 10],
        ],
        colors: [
          ["Sunflower", "#facc15", 18],
          ["Ocean", "#0ea5e9", 14],
        ],
        images: 2,
      },
    ],
    games: [
      {
        question: "How many canting dots are on our best-selling Indigo cushion cover?",
        description:
          "Every cover is waxed by hand in our Penang studio. Watch the time-lapse, count fast, and make your guess.",
        options: ["About 800", "About 1,500", "About 2,400", "About 3,200"],
        correct: "About 2,400",
        feeCents: 300,
      },
      {
        question: "Which ingredient did my grandmother always add to her rendang that nobody expects?",
        description:
          "Her rendang won every kampung cook-off for twenty years. The secret is in the video, if you look closely.",
        options: ["Star anise", "Torch ginger flower", "Cinnamon bark", "Kaffir lime leaf", "Fennel seed"],
        correct: "Torch ginger flower",
        feeCents: 200,
      },
      {
        question: "How long does one large rattan basket take to weave by hand?",
        description: "We filmed Pak Hamid weaving a large basket from the first spoke to the last twist.",
        options: ["2 hours", "5 hours", "9 hours"],
        correct: "9 hours",
        feeCents: 500,
      },
    ],
  },
  {
    email: "marcus@demo.tribe",
    name: "Marcus Tan",
    slug: "marcus-builds",
    country: "SG",
    city: "Singapore",
    category: "Tech & Gaming",
    bio: "Mechanical keyboard nerd from Tampines. I design keycaps, desk mats and cable kits, and stream the builds every Thursday night.",
    website: "https://marcusbuilds.example",
    verified: true,
    palette: ["#0ea5e9", "#6366f1"],
    shipsTo: ["SG", "MY", "AU", "US", "JP", "GB"],
    miniPrizes: [
      ["Custom coiled cable", "38", "5"],
      ["Keycap novelty pack", "20", "15"],
    ],
    products: [
      {
        name: "Kampong Nights Keycap Set",
        description:
          "Double-shot PBT keycaps inspired by hawker centres after dark. Cherry profile, 172 keys, fits most 60% to full-size boards.",
        category: "physical",
        shop: "Tech & Gaming",
        sizes: [
          ["Base kit", 8900, 14],
          ["Base + novelties", 11900, 6],
        ],
        colors: [
          ["Midnight", "#1e293b", 12],
          ["Lantern", "#f59e0b", 8],
        ],
        images: 3,
      },
      {
        name: "Hawker Map Desk Mat",
        description:
          "Stitched-edge desk mat printed with a hand-drawn map of Singapore's best hawker centres. Water-resistant top.",
        category: "physical",
        shop: "Tech & Gaming",
        sizes: [
          ["900 x 400 mm", 3200, 40, "900 x 400 x 4 mm"],
          ["1200 x 600 mm", 4500, 3, "1200 x 600 x 4 mm"],
        ],
        colors: [
          ["Hawker Teal", "#0f766e", 25],
          ["Monochrome", "#111827", 18],
        ],
        images: 2,
      },
      {
        name: "Coiled Aviator Cable",
        description:
          "USB-C to USB-C with a GX16 aviator connector and a tight 15 cm coil. Paracord sleeved, built to order.",
        category: "physical",
        shop: "Tech & Gaming",
        sizes: [["1.5 m", 3800, 18]],
        colors: [
          ["Teal", "#14b8a6", 8],
          ["Coral", "#fb7185", 5],
          ["Black", "#111111", 5],
        ],
        images: 2,
      },
      {
        name: "Keyboard Build Guide (e-book)",
        description:
          "Everything from choosing switches to lubing stabilisers, with 120 photos from my own builds. PDF and EPUB.",
        category: "digital",
        shop: "Tech & Gaming",
        sizes: [["PDF + EPUB", 1200, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
      {
        name: "24-Switch Tester",
        description:
          "Try 24 popular linear, tactile and clicky switches before you commit to a full set. Acrylic base included.",
        category: "physical",
        shop: "Tech & Gaming",
        sizes: [["24 switches", 2600, 0]],
        colors: [["Clear", "#e5e7eb", 0]],
        images: 1,
      },
    ],
    games: [
      {
        question: "How many switches did I lube for this week's 75% build?",
        description: "Stream replay is up. Count the switches on the tray before the lid goes on.",
        options: ["68", "75", "84", "87"],
        correct: "84",
        feeCents: 200,
      },
      {
        question: "Which keycap profile is on my daily driver?",
        description: "Close-up in the video. Keycap nerds, this one's for you.",
        options: ["Cherry", "SA", "MT3", "XDA", "KAT", "OEM"],
        correct: "MT3",
        feeCents: 100,
      },
    ],
  },
  {
    email: "jenna@demo.tribe",
    name: "Jenna Morales",
    slug: "brooklyn-crumb",
    country: "US",
    city: "Brooklyn",
    category: "Food & Cooking",
    bio: "Sourdough baker in Brooklyn. I ship starter kits, proofing baskets and my grandmother's pan dulce recipes to bakers everywhere.",
    website: "https://brooklyncrumb.example",
    verified: true,
    palette: ["#f59e0b", "#b45309"],
    shipsTo: ["US", "CA", "GB", "AU"],
    miniPrizes: [
      ["Banneton basket", "22", "8"],
      ["Free virtual bread class", "40", "3"],
    ],
    products: [
      {
        name: "Sourdough Starter Kit",
        description:
          "Dried heirloom starter (14 years old!), a glass jar, a dough scraper and my step-by-step feeding schedule.",
        category: "physical",
        shop: "Food & Cooking",
        sizes: [
          ["Kit", 3400, 25],
          ["Kit + banneton", 5200, 7],
        ],
        colors: [["Natural", "#e7d3b0", 32]],
        images: 3,
      },
      {
        name: "Rattan Banneton Basket",
        description:
          "Natural rattan proofing basket with a linen liner. Gives your loaves those beautiful flour spirals.",
        category: "physical",
        shop: "Food & Cooking",
        sizes: [
          ["9 in round", 2200, 30, "23 cm"],
          ["10 in oval", 2500, 10, "25 x 15 cm"],
        ],
        colors: [["Natural", "#c8a97e", 40]],
        images: 2,
      },
      {
        name: "Pan Dulce Recipe Collection",
        description:
          "Conchas, marranitos and orejas the way my abuela made them, scaled for home ovens. 28 recipes, PDF.",
        category: "digital",
        shop: "Food & Cooking",
        sizes: [["PDF download", 900, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
      {
        name: "Virtual Bread Class",
        description:
          "A live two-hour class over video: mix, shape and score a country loaf with me. Recording included.",
        category: "voucher",
        shop: "Food & Cooking",
        sizes: [["One class", 4000, 50]],
        images: 1,
        voucherValueCents: 4000,
      },
      {
        name: "Linen Bread Bag",
        description: "Keeps a crust crisp for days. Heavyweight linen with a drawstring, big enough for a 1 kg boule.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [["Standard", 1600, 60]],
        colors: [
          ["Flax", "#d4c4a8", 35],
          ["Rust", "#b45309", 25],
        ],
        images: 2,
      },
    ],
    games: [
      {
        question: "How many hours did this week's country loaf cold-proof in the fridge?",
        description: "The crumb shot says it all. Guess the cold-proof time and you're in the draw.",
        options: ["12", "18", "24", "36"],
        correct: "18",
        feeCents: 300,
      },
      {
        question: "What hydration is my signature sourdough?",
        description: "Watch the stretch-and-folds in the video for a clue.",
        options: ["65%", "72%", "78%", "85%"],
        correct: "78%",
        feeCents: 400,
      },
      {
        question: "Which flour makes up 20% of my rye blend?",
        description: "It's the nutty one. The bag is in the background if you are quick.",
        options: ["Spelt", "Dark rye", "Einkorn", "Whole wheat"],
        correct: "Spelt",
        feeCents: 200,
      },
    ],
  },
  {
    email: "oliver@demo.tribe",
    name: "Oliver Hughes",
    slug: "ollie-runs",
    country: "GB",
    city: "Leeds",
    category: "Fitness & Health",
    bio: "Ultrarunner and physio from Leeds. Kit I actually race in, honest training plans, and a monthly trail-run meetup for the tribe.",
    website: "https://ollieruns.example",
    verified: false,
    palette: ["#22c55e", "#0f766e"],
    shipsTo: ["GB", "DE", "FR", "IE", "NL"],
    miniPrizes: [["Merino sock bundle", "24", "10"]],
    products: [
      {
        name: "Trail Running Vest 12L",
        description: "Two soft flasks, a phone pocket you can reach mid-stride and room for a full mountain kit list.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [
          ["S", 7800, 6],
          ["M", 7800, 12],
          ["L", 8200, 2],
        ],
        colors: [
          ["Moss", "#4d7c0f", 12],
          ["Slate", "#475569", 8],
        ],
        images: 3,
      },
      {
        name: "Merino Running Socks (3 pairs)",
        description: "Cushioned merino blend with a seamless toe. Tested over 400 km of Yorkshire bog.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [
          ["UK 4-7", 2400, 40],
          ["UK 8-11", 2400, 33],
        ],
        colors: [
          ["Heather", "#9ca3af", 40],
          ["Orange", "#f97316", 33],
        ],
        images: 2,
      },
      {
        name: "16-Week Ultra Training Plan",
        description:
          "The plan I used for my first 100 km: week-by-week sessions, strength work and taper, as a PDF and calendar file.",
        category: "digital",
        shop: "Home & Lifestyle",
        sizes: [["PDF + calendar", 1900, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
      {
        name: "Physio Check-up",
        description:
          "A 45-minute running assessment at my Leeds clinic or online: gait video, strength tests and a plan.",
        category: "voucher",
        shop: "Home & Lifestyle",
        sizes: [["45-minute session", 5500, 20]],
        images: 1,
        voucherValueCents: 6000,
      },
    ],
    games: [
      {
        question: "What was my finishing time at the Lakeland 50?",
        description: "Fifty miles of fells. The finish-line clock is in the last frame of the video.",
        options: ["9h 42m", "10h 58m", "11h 37m", "12h 20m"],
        correct: "11h 37m",
        feeCents: 500,
      },
      {
        question: "How many kilometres did I run in March?",
        description: "My training log, blurred. Make your best guess.",
        options: ["286", "342", "410", "455", "512"],
        correct: "410",
        feeCents: 300,
      },
    ],
  },
  {
    email: "yuki@demo.tribe",
    name: "Yuki Sato",
    slug: "yuki-ink",
    country: "JP",
    city: "Kyoto",
    category: "Art & Creativity",
    bio: "Sumi-e illustrator in Kyoto. Hand-printed risograph postcards, washi notebooks and brush kits, with a little sketch tucked into every parcel.",
    website: "https://yukiink.example",
    verified: true,
    palette: ["#ef4444", "#1f2937"],
    shipsTo: ["JP", "SG", "MY", "US", "AU", "KR"],
    miniPrizes: [
      ["Original postcard sketch", "30", "5"],
      ["Washi sketchbook", "21", "3"],
    ],
    products: [
      {
        name: "Kyoto Seasons Riso Postcards",
        description:
          "Twelve risograph postcards, one for each month in Kyoto, printed in two inks on thick recycled card.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [["Set of 12", 1800, 80]],
        colors: [
          ["Spring", "#f9a8d4", 45],
          ["Autumn", "#ea580c", 35],
        ],
        images: 3,
      },
      {
        name: "Washi Sketchbook",
        description:
          "Hand-bound with Japanese stab binding and 48 pages of washi that takes ink and watercolour beautifully.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [
          ["A5", 2100, 25, "148 x 210 mm"],
          ["A4", 2900, 9, "210 x 297 mm"],
        ],
        colors: [
          ["Indigo", "#312e81", 20],
          ["Kinari", "#f5f0e1", 14],
        ],
        images: 2,
      },
      {
        name: "Sumi-e Brush Starter Kit",
        description: "Two goat-hair brushes, a Nara ink stick, a suzuri stone and a felt mat, boxed in paulownia wood.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [["Starter kit", 6400, 5]],
        colors: [["Black lacquer", "#111111", 5]],
        images: 2,
      },
      {
        name: "Brush Pen Lettering Worksheets",
        description:
          "Forty printable practice sheets for hiragana, katakana and English brush lettering. Print as many times as you like.",
        category: "digital",
        shop: "Home & Lifestyle",
        sizes: [["PDF download", 800, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
      {
        name: "Framed Original Ink Sketch",
        description: "An original sumi-e sketch of a Kyoto street, signed and framed in oak. Each one is different.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [
          ["20 x 25 cm", 12000, 3],
          ["30 x 40 cm", 18000, 1],
        ],
        colors: [["Oak frame", "#a16207", 4]],
        images: 2,
      },
    ],
    games: [
      {
        question: "How many brush strokes are in my bamboo painting from the video?",
        description: "Slow it down and count. Every leaf is a single stroke.",
        options: ["23", "31", "47", "58"],
        correct: "31",
        feeCents: 200,
      },
      {
        question: "Which temple garden did I sketch on Sunday?",
        description: "A quiet one in the north-east of the city. The sketch is in the video.",
        options: ["Ryoan-ji", "Tofuku-ji", "Ginkaku-ji", "Shisen-do"],
        correct: "Shisen-do",
        feeCents: 100,
      },
    ],
  },
  {
    email: "coastalkin@demo.tribe",
    name: "Coastal Kin",
    slug: "coastal-kin",
    country: "AU",
    city: "Fremantle",
    category: "Travel & Adventure",
    bio: "Liam and Ava, two kids and a troopy, lapping Australia one beach at a time. Our camp gear, maps and road-trip guides, tested on 40,000 km of dirt.",
    website: "https://coastalkin.example",
    verified: false,
    palette: ["#06b6d4", "#f59e0b"],
    shipsTo: ["AU", "NZ", "US"],
    miniPrizes: [
      ["Enamel camp plate set", "29", "6"],
      ["Big Lap route guide", "15", "unlimited"],
    ],
    products: [
      {
        name: "Canvas Camp Organiser",
        description:
          "Waxed canvas organiser that straps to a seat back or a tailgate. Twelve pockets; survived the Gibb River Road.",
        category: "physical",
        shop: "Home & Lifestyle",
        sizes: [
          ["Standard", 4800, 15],
          ["XL", 6200, 4],
        ],
        colors: [
          ["Sand", "#d6c29c", 11],
          ["Olive", "#556b2f", 8],
        ],
        images: 3,
      },
      {
        name: "Enamel Camp Plates (set of 4)",
        description: "Speckled enamel plates that stack flat and shrug off campfire abuse.",
        category: "physical",
        shop: "Food & Cooking",
        sizes: [["Set of 4", 2900, 30, "25 cm"]],
        colors: [
          ["Sea Spray", "#7dd3fc", 18],
          ["Red Dirt", "#b91c1c", 12],
        ],
        images: 2,
      },
      {
        name: "Big Lap Route Guide",
        description:
          "Our full lap of Australia: 84 campsites, fuel stops and the detours worth taking, with GPX files.",
        category: "digital",
        shop: "Home & Lifestyle",
        sizes: [["PDF + GPX", 1500, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
      {
        name: "Sunrise Kayak Tour",
        description:
          "A guided sunrise paddle with us at Rottnest, dolphins very likely. Morning tea on the beach after.",
        category: "voucher",
        shop: "Home & Lifestyle",
        sizes: [["Two adults", 7500, 10]],
        images: 2,
        voucherValueCents: 8000,
      },
      {
        name: "Turkish Cotton Beach Towel",
        description: "Light, quick-drying and sand-shedding. Doubles as a picnic blanket and a sarong.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [
          ["Standard", 3600, 0, "90 x 170 cm"],
          ["Oversized", 4400, 12, "100 x 200 cm"],
        ],
        colors: [
          ["Coral Stripe", "#fb7185", 6],
          ["Ocean Stripe", "#0284c7", 6],
        ],
        images: 2,
      },
    ],
    games: [
      {
        question: "How many kilometres was our longest single day of driving?",
        description: "Nullarbor, two kids, one audiobook on repeat. Guess the odometer.",
        options: ["612", "845", "1,020", "1,190"],
        correct: "1,020",
        feeCents: 300,
      },
      {
        question: "Which beach topped the kids' favourite list?",
        description: "They voted after 200 beaches. The answer surprised us too.",
        options: ["Cable Beach", "Lucky Bay", "Whitehaven", "Wineglass Bay", "Bells Beach"],
        correct: "Lucky Bay",
        feeCents: 200,
      },
      {
        question: "How many flat tyres have we had on the lap so far?",
        description: "Liam says fewer, Ava says more. The tyre pile in the video knows.",
        options: ["3", "5", "7"],
        correct: "5",
        feeCents: 100,
      },
    ],
  },
  {
    email: "dewi@demo.tribe",
    name: "Dewi Lestari",
    slug: "dewi-wastra",
    country: "ID",
    city: "Jakarta",
    category: "Fashion & Beauty",
    bio: "Jakarta designer reviving hand-woven ikat and tenun as everyday wear. Small batches, weavers paid fairly, every piece traceable to its village.",
    website: "https://dewiwastra.example",
    verified: true,
    palette: ["#a855f7", "#ec4899"],
    shipsTo: ["ID", "MY", "SG", "NL", "AU"],
    miniPrizes: [
      ["Silk scrunchie trio", "15", "12"],
      ["Tenun tote bag", "42", "2"],
    ],
    products: [
      {
        name: "Ikat Wrap Skirt",
        description: "Hand-woven Sumba ikat cut into a wrap skirt with a hidden button. Each skirt is one of a kind.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [
          ["S", 5800, 9],
          ["M", 5800, 14],
          ["L", 6200, 0],
        ],
        colors: [
          ["Sumba Red", "#9f1239", 12],
          ["Indigo", "#1e3a8a", 11],
        ],
        images: 3,
      },
      {
        name: "Tenun Tote Bag",
        description: "Lombok tenun panels on a canvas tote with leather handles. Fits a laptop and a lot of snacks.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [["One size", 4200, 20, "40 x 35 x 12 cm"]],
        colors: [
          ["Sunset", "#f97316", 10],
          ["Forest", "#166534", 10],
        ],
        images: 2,
      },
      {
        name: "Rose & Turmeric Face Oil",
        description: "Cold-pressed rosehip with Javanese turmeric and rose. Made in small batches in Yogyakarta.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [["30 ml", 2600, 45]],
        colors: [["Amber glass", "#b45309", 45]],
        images: 1,
      },
      {
        name: "Silk Scrunchie Trio",
        description: "Three mulberry silk scrunchies from our offcuts, gentle on hair, zero fabric waste.",
        category: "physical",
        shop: "Fashion & Beauty",
        sizes: [["Set of 3", 1500, 60]],
        colors: [
          ["Blush", "#fbcfe8", 20],
          ["Mocha", "#7c5c46", 20],
          ["Jade", "#34d399", 20],
        ],
        images: 2,
      },
      {
        name: "Weaving Village Lookbook",
        description: "A 60-page digital lookbook of the villages and weavers behind every piece, with styling notes.",
        category: "digital",
        shop: "Fashion & Beauty",
        sizes: [["PDF download", 600, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
    ],
    games: [
      {
        question: "How many days did it take to weave the Sumba ikat in this video?",
        description: "From tying the threads to the last pass of the shuttle. Ibu Rambu kept count.",
        options: ["14", "30", "45", "60", "90"],
        correct: "45",
        feeCents: 400,
      },
      {
        question: "Which natural dye gives our ikat its deep red?",
        description: "It takes weeks of soaking. The roots are in the video.",
        options: ["Mengkudu root", "Secang wood", "Turmeric", "Indigo leaf"],
        correct: "Mengkudu root",
        feeCents: 200,
      },
    ],
  },
  {
    email: "lukas@demo.tribe",
    name: "Lukas Becker",
    slug: "becker-roastery",
    country: "DE",
    city: "Hamburg",
    category: "Business & Brand",
    bio: "Third-generation coffee roaster from Hamburg. Single-origin beans, brewing gear and cupping classes, roasted to order every Tuesday.",
    website: "https://beckerroastery.example",
    verified: true,
    palette: ["#78350f", "#d97706"],
    shipsTo: ["DE", "AT", "CH", "NL", "FR", "GB"],
    miniPrizes: [
      ["Single-origin sampler", "32", "6"],
      ["Cupping class seat", "49", "2"],
    ],
    products: [
      {
        name: "Single-Origin Sampler",
        description:
          "Four 100 g bags from this month's roasts with tasting notes and brew recipes. Roasted the Tuesday before dispatch.",
        category: "physical",
        shop: "Food & Cooking",
        sizes: [
          ["Whole bean", 3200, 50],
          ["Filter grind", 3200, 22],
          ["Espresso grind", 3200, 8],
        ],
        colors: [["Kraft", "#c8a97e", 80]],
        images: 3,
      },
      {
        name: "Hamburg Harbour Blend 1 kg",
        description: "Our chocolatey house espresso, the one the harbour cafés have been pouring since 1962.",
        category: "physical",
        shop: "Food & Cooking",
        sizes: [["1 kg", 3800, 0]],
        colors: [["Kraft", "#c8a97e", 0]],
        images: 1,
      },
      {
        name: "Ceramic Pour-Over Dripper",
        description: "Made for us by a Westerwald pottery. Spiral ribs for an even, forgiving brew.",
        category: "physical",
        shop: "Food & Cooking",
        sizes: [["Size 02", 2900, 17]],
        colors: [
          ["Harbour Blue", "#1d4ed8", 9],
          ["Matte White", "#f8fafc", 8],
        ],
        images: 2,
      },
      {
        name: "Cupping Class",
        description: "Two hours at the roastery: cup eight coffees side by side and learn to taste like a buyer.",
        category: "voucher",
        shop: "Food & Cooking",
        sizes: [["Saturday class", 4900, 16]],
        images: 1,
        voucherValueCents: 5500,
      },
      {
        name: "Home Barista Guide",
        description:
          "Dial in espresso and filter at home: grind charts, ratios and troubleshooting, from our training manual.",
        category: "digital",
        shop: "Food & Cooking",
        sizes: [["PDF download", 1000, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
    ],
    games: [
      {
        question: "Which country grew the beans in this month's mystery roast?",
        description: "Tasting notes: hibiscus, red currant, black tea. Guess the origin.",
        options: ["Ethiopia", "Colombia", "Rwanda", "Guatemala", "Indonesia", "Peru"],
        correct: "Rwanda",
        feeCents: 300,
      },
      {
        question: "How many seconds does my espresso shot in the video pull for?",
        description: "No timer on screen this time. Count along.",
        options: ["22", "27", "31", "36"],
        correct: "27",
        feeCents: 200,
      },
    ],
  },
  {
    email: "ploy@demo.tribe",
    name: "Ploy Chaiyasit",
    slug: "ploy-plays",
    country: "TH",
    city: "Bangkok",
    category: "Entertainment",
    bio: "Bangkok comedian and board-game host. Party games, live-show tickets and a weekly trivia night where the tribe writes the punchlines.",
    website: "https://ployplays.example",
    verified: false,
    palette: ["#f43f5e", "#8b5cf6"],
    shipsTo: ["TH", "MY", "SG"],
    miniPrizes: [["Front-row comedy ticket", "45", "2"]],
    products: [
      {
        name: "Street Food Party Card Game",
        description:
          "The party game where you bluff your way through a Bangkok night market. 3 to 8 players, 20-minute rounds.",
        category: "physical",
        shop: "Tech & Gaming",
        sizes: [["Standard deck", 2500, 35]],
        colors: [["Classic", "#f43f5e", 35]],
        images: 2,
      },
      {
        name: "Live Comedy Night",
        description: "A seat at my monthly stand-up night in Ari. Drinks not included, heckling encouraged.",
        category: "voucher",
        shop: "Tech & Gaming",
        sizes: [
          ["Standard", 2800, 40],
          ["Front row", 4500, 6],
        ],
        images: 1,
        voucherValueCents: 3000,
      },
      {
        name: "Trivia Night Question Pack",
        description: "500 questions from a year of our trivia nights, sorted by round, with answer sheets.",
        category: "digital",
        shop: "Tech & Gaming",
        sizes: [["PDF download", 500, 999]],
        colors: [["Digital", "#6366f1", 999]],
        images: 1,
      },
      {
        name: "Tuk-Tuk Dice Set",
        description: "Seven resin dice with tiny tuk-tuks suspended inside. Rolls true, looks ridiculous.",
        category: "physical",
        shop: "Tech & Gaming",
        sizes: [["Set of 7", 1200, 9]],
        colors: [
          ["Neon", "#a3e635", 5],
          ["Gold", "#eab308", 4],
        ],
        images: 2,
      },
    ],
    games: [],
  },
];

/** Games of the drawn pools (one per drawn host, completed before the pool closed). */
const PAST_GAMES: readonly GameSpec[] = [
  {
    question: "How many cushion covers did we ship during last year's Raya rush?",
    description: "Three weeks, one tiny studio and a lot of packing tape. Guess the final count.",
    options: ["420", "760", "1,150", "1,600"],
    correct: "1,150",
    feeCents: 200,
  },
  {
    question: "How many keycaps are in the full Kampong Nights set?",
    description: "Base kit plus novelties, every legend counted. The sprue shot is in the video.",
    options: ["104", "148", "172", "210"],
    correct: "172",
    feeCents: 100,
  },
  {
    question: "How many loaves did I bake for the Dean Street block party?",
    description: "Two ovens, one very long night. The cooling racks are in the video.",
    options: ["48", "64", "96", "120"],
    correct: "96",
    feeCents: 300,
  },
];

const FANS: readonly (readonly [name: string, country: string])[] = [
  ["Sofia Tan", "MY"],
  ["Amir Hakim", "MY"],
  ["Mei Ling Wong", "MY"],
  ["Priya Nair", "MY"],
  ["Jun Wei Lee", "SG"],
  ["Hannah Goh", "SG"],
  ["Rahul Menon", "SG"],
  ["Emily Carter", "US"],
  ["Diego Alvarez", "US"],
  ["Grace Kim", "US"],
  ["Noah Bennett", "US"],
  ["Chloe Williams", "GB"],
  ["Harry Patel", "GB"],
  ["Isla Thompson", "GB"],
  ["Haruto Nakamura", "JP"],
  ["Aoi Tanaka", "JP"],
  ["Ren Kobayashi", "JP"],
  ["Mia Robinson", "AU"],
  ["Jack O'Connor", "AU"],
  ["Zoe Nguyen", "AU"],
  ["Putri Ananda", "ID"],
  ["Bagus Pratama", "ID"],
  ["Sari Wulandari", "ID"],
  ["Leonie Schmidt", "DE"],
  ["Jonas Weber", "DE"],
  ["Anna Fischer", "DE"],
  ["Nattapong Srisuk", "TH"],
  ["Kanya Boonmee", "TH"],
  ["Lucas Dubois", "FR"],
  ["Sofia Rossi", "IT"],
];

/** A plausible postal address per country (the street number varies). */
const ADDRESSES: Record<string, { street: string; city: string; state: string; postal: string }> = {
  MY: { street: "Jalan Sultan Ismail", city: "Kuala Lumpur", state: "Wilayah Persekutuan", postal: "50250" },
  SG: { street: "Tampines Street 81", city: "Singapore", state: "Singapore", postal: "520810" },
  US: { street: "Atlantic Avenue", city: "Brooklyn", state: "NY", postal: "11217" },
  GB: { street: "Briggate", city: "Leeds", state: "West Yorkshire", postal: "LS1 6HD" },
  JP: { street: "Shijo-dori", city: "Kyoto", state: "Kyoto", postal: "600-8005" },
  AU: { street: "High Street", city: "Fremantle", state: "WA", postal: "6160" },
  ID: { street: "Jalan Kemang Raya", city: "Jakarta Selatan", state: "DKI Jakarta", postal: "12730" },
  DE: { street: "Schanzenstrasse", city: "Hamburg", state: "Hamburg", postal: "20357" },
  TH: { street: "Phahonyothin Road", city: "Bangkok", state: "Bangkok", postal: "10400" },
  FR: { street: "Rue Oberkampf", city: "Paris", state: "Ile-de-France", postal: "75011" },
  IT: { street: "Via Tortona", city: "Milano", state: "Lombardia", postal: "20144" },
};

const CARRIERS: Record<string, string> = {
  MY: "Pos Laju",
  SG: "Ninja Van",
  US: "UPS",
  GB: "Royal Mail",
  JP: "Japan Post",
  AU: "Australia Post",
  ID: "J&T Express",
  DE: "DHL",
  TH: "Kerry Express",
};

// ---------------------------------------------------------------------------------------------------------------
// Images (simple SVG artwork generated here, stored in R2 and served by the app under /media/)

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  return words
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if ((line + " " + word).trim().length > width && line) {
      lines.push(line);
      line = word;
    } else line = (line + " " + word).trim();
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]!.replace(/\W*\w*$/, "")}…`;
    return kept;
  }
  return lines;
}

const FONT = "font-family=\"ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif\"";

function gradient(id: string, c1: string, c2: string, angle: number): string {
  const rad = (angle * Math.PI) / 180;
  const x = Math.round(50 + 50 * Math.cos(rad));
  const y = Math.round(50 + 50 * Math.sin(rad));
  return `<linearGradient id="${id}" x1="${100 - x}%" y1="${100 - y}%" x2="${x}%" y2="${y}%"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient>`;
}

function productSvg(name: string, c1: string, c2: string, variant: number): string {
  const angle = [35, 120, 210][variant % 3]!;
  const circles = [
    `<circle cx="480" cy="110" r="150" fill="#fff" opacity="0.12"/><circle cx="90" cy="520" r="190" fill="#000" opacity="0.08"/>`,
    `<rect x="-80" y="380" width="760" height="160" rx="80" fill="#fff" opacity="0.1" transform="rotate(-18 300 460)"/><circle cx="120" cy="120" r="90" fill="#fff" opacity="0.14"/>`,
    `<circle cx="300" cy="300" r="250" fill="none" stroke="#fff" stroke-width="28" opacity="0.12"/><circle cx="520" cy="520" r="120" fill="#000" opacity="0.08"/>`,
  ][variant % 3]!;
  const label = wrap(name, 24, 2);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="${escapeXml(name)}">
<defs>${gradient("g", c1, c2, angle)}</defs>
<rect width="600" height="600" fill="url(#g)"/>${circles}
<text x="300" y="320" text-anchor="middle" ${FONT} font-size="168" font-weight="800" fill="#fff" opacity="0.95">${escapeXml(initials(name))}</text>
<rect x="60" y="${label.length > 1 ? 430 : 450}" width="480" height="${label.length > 1 ? 110 : 80}" rx="24" fill="#000" opacity="0.28"/>
${label.map((l, i) => `<text x="300" y="${(label.length > 1 ? 478 : 500) + i * 40}" text-anchor="middle" ${FONT} font-size="30" font-weight="600" fill="#fff">${escapeXml(l)}</text>`).join("\n")}
</svg>`;
}

function avatarSvg(name: string, c1: string, c2: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="${escapeXml(name)}">
<defs>${gradient("g", c1, c2, 45)}</defs>
<rect width="256" height="256" fill="url(#g)"/><circle cx="210" cy="40" r="70" fill="#fff" opacity="0.15"/>
<text x="128" y="150" text-anchor="middle" ${FONT} font-size="96" font-weight="700" fill="#fff">${escapeXml(initials(name))}</text>
</svg>`;
}

function coverSvg(name: string, c1: string, c2: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="400" viewBox="0 0 1200 400" role="img" aria-label="${escapeXml(name)} cover">
<defs>${gradient("g", c1, c2, 20)}</defs>
<rect width="1200" height="400" fill="url(#g)"/>
<path d="M0 300 C 200 220, 400 380, 600 300 S 1000 220, 1200 300 V400 H0 Z" fill="#fff" opacity="0.12"/>
<path d="M0 340 C 250 280, 450 420, 700 340 S 1050 280, 1200 340 V400 H0 Z" fill="#000" opacity="0.1"/>
<circle cx="1030" cy="90" r="120" fill="#fff" opacity="0.12"/><circle cx="160" cy="70" r="60" fill="#fff" opacity="0.1"/>
</svg>`;
}

function gameSvg(question: string, hostName: string, c1: string, c2: string): string {
  // 16:9 like the game cards; the text stays in the middle band so a square crop keeps it.
  const lines = wrap(question, 34, 4);
  const top = 350 - (lines.length - 1) * 30;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720" role="img" aria-label="${escapeXml(question)}">
<defs>${gradient("g", c1, c2, 140)}</defs>
<rect width="1280" height="720" fill="url(#g)"/>
<text x="1080" y="330" text-anchor="middle" ${FONT} font-size="420" font-weight="900" fill="#fff" opacity="0.12">?</text>
<circle cx="150" cy="640" r="220" fill="#000" opacity="0.08"/>
${lines.map((l, i) => `<text x="640" y="${top + i * 60}" text-anchor="middle" ${FONT} font-size="48" font-weight="700" fill="#fff">${escapeXml(l)}</text>`).join("\n")}
<rect x="520" y="${top + lines.length * 60 + 10}" width="240" height="52" rx="26" fill="#fff" opacity="0.92"/>
<text x="640" y="${top + lines.length * 60 + 45}" text-anchor="middle" ${FONT} font-size="24" font-weight="800" fill="${c2}">GUESS &amp; WIN</text>
<text x="64" y="96" ${FONT} font-size="30" font-weight="600" fill="#fff" opacity="0.9">${escapeXml(hostName)}</text>
</svg>`;
}

/** True for a pale colour, on which white initials would not read. */
function isLight(hex: string): boolean {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return false;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => Number.parseInt(h, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.72;
}

// ---------------------------------------------------------------------------------------------------------------
// Building the rows

type R2Like = {
  put(key: string, value: string, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown>;
};

type Rows = {
  users: schema.NewUser[];
  userProfiles: schema.NewUserProfile[];
  userShippingCountries: (typeof schema.userShippingCountries.$inferInsert)[];
  tribeMembers: schema.NewTribeMember[];
  products: schema.NewProduct[];
  productSizes: schema.NewProductSize[];
  productColors: schema.NewProductColor[];
  productImages: schema.NewProductImage[];
  productLikes: (typeof schema.productLikes.$inferInsert)[];
  prizePools: schema.NewPrizePool[];
  prizeMiniPrizes: schema.NewPrizeMiniPrize[];
  guessWinGames: schema.NewGuessWinGame[];
  guessWinParticipants: schema.NewGuessWinParticipant[];
  gameShares: (typeof schema.gameShares.$inferInsert)[];
  gameLikes: (typeof schema.gameLikes.$inferInsert)[];
  freeGuessUsage: (typeof schema.freeGuessUsage.$inferInsert)[];
  groupBuys: schema.NewGroupBuy[];
  groupBuyTiers: schema.NewGroupBuyTier[];
  groupBuyProducts: (typeof schema.groupBuyProducts.$inferInsert)[];
  groupBuyShares: (typeof schema.groupBuyShares.$inferInsert)[];
  checkoutSessions: schema.NewCheckoutSession[];
  orders: schema.NewOrder[];
  shippingUpdates: schema.NewShippingUpdate[];
  vouchers: schema.NewVoucher[];
  prizePoolContributions: schema.NewPrizePoolContribution[];
  prizeEntries: schema.NewPrizeEntry[];
  prizeWinners: schema.NewPrizeWinner[];
  prizeDraws: (typeof schema.prizeDraws.$inferInsert)[];
  drawCommitments: (typeof schema.drawCommitments.$inferInsert)[];
  payouts: (typeof schema.payouts.$inferInsert)[];
  mailOutbox: (typeof schema.mailOutbox.$inferInsert)[];
  payoutMethods: schema.NewPayoutMethod[];
  chatConversations: (typeof schema.chatConversations.$inferInsert)[];
  chatMessages: schema.NewChatMessage[];
  userActivity: schema.NewUserActivity[];
  platformSettings: (typeof schema.platformSettings.$inferInsert)[];
  miniPrizeWinners: (typeof schema.miniPrizeWinners.$inferInsert)[];
  adRevenueReports: (typeof schema.adRevenueReports.$inferInsert)[];
  earningsLedger: EarningRow[];
};

type Person = { id: string; email: string; name: string; country: string; createdAt: Date };
type Host = Person & { spec: HostSpec; avatarUrl: string; products: SeededProduct[]; members: Person[] };
type SeededProduct = {
  id: string;
  spec: ProductSpec;
  imageUrls: string[];
  salesCount: number;
  revenueCents: number;
};
/** Something that earns a pool entry or feeds the pool, in time order. */
type PoolEvent = {
  at: Date;
  userId: string | null;
  sourceType: (typeof schema.CONTRIBUTION_SOURCE_TYPES)[number];
  sourceKey: string;
  contributionCents: number;
  earnsEntry: boolean;
  /** Called with the entry number once numbers are assigned. */
  onEntry?: (entryNumber: number) => void;
};

const emailFor = (name: string) =>
  `${name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z\s]/g, "")
    .trim()
    .replace(/\s+/g, ".")}@demo.tribe`;

async function buildRows(media: R2Like, siteOrigin: string) {
  const rows: Rows = {
    users: [],
    userProfiles: [],
    userShippingCountries: [],
    tribeMembers: [],
    products: [],
    productSizes: [],
    productColors: [],
    productImages: [],
    productLikes: [],
    prizePools: [],
    prizeMiniPrizes: [],
    guessWinGames: [],
    guessWinParticipants: [],
    gameShares: [],
    gameLikes: [],
    freeGuessUsage: [],
    groupBuys: [],
    groupBuyTiers: [],
    groupBuyProducts: [],
    groupBuyShares: [],
    checkoutSessions: [],
    orders: [],
    shippingUpdates: [],
    vouchers: [],
    prizePoolContributions: [],
    prizeEntries: [],
    prizeWinners: [],
    prizeDraws: [],
    drawCommitments: [],
    payouts: [],
    payoutMethods: [],
    chatConversations: [],
    chatMessages: [],
    userActivity: [],
    mailOutbox: [],
    platformSettings: [],
    miniPrizeWinners: [],
    adRevenueReports: [],
    earningsLedger: [],
  };
  const uploads: { key: string; body: string; contentType: string }[] = [];
  const svg = (key: string, body: string) => {
    uploads.push({ key, body, contentType: "image/svg+xml" });
    return `/media/${key}`;
  };

  // --- accounts ------------------------------------------------------------------------------------------------
  const people: (Person & { role: "user" | "admin"; public: boolean; palette: readonly [string, string] })[] = [];
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
      avatarUrl: svg(`avatars/${id}.svg`, avatarSvg(spec.name, spec.palette[0], spec.palette[1])),
      products: [],
      members: [],
    };
    people.push({ ...host, role: "user", public: true, palette: spec.palette });
    return host;
  });
  const demoHost = hosts[0]!;

  const fanPalettes: readonly (readonly [string, string])[] = [
    ["#6366f1", "#a855f7"],
    ["#14b8a6", "#0ea5e9"],
    ["#f97316", "#ef4444"],
    ["#84cc16", "#16a34a"],
    ["#ec4899", "#8b5cf6"],
  ];
  const fans: Person[] = FANS.map(([name, country], i) => {
    const fan = {
      id: crypto.randomUUID(),
      email: i === 0 ? DEMO_FAN_EMAIL : emailFor(name),
      name,
      country,
      createdAt: daysAgo(int(90, 240)),
    };
    people.push({ ...fan, role: "user", public: false, palette: fanPalettes[i % fanPalettes.length]! });
    return fan;
  });
  const demoFan = fans[0]!;
  const personById = new Map(people.map((p) => [p.id, p]));

  // scrypt takes about 0.2 s of CPU per hash: the three demo accounts get their own hashes and the other demo
  // accounts (same published local password) share one, which keeps the seed fast on a small machine.
  const demoEmails = [DEMO_HOST_EMAIL, DEMO_FAN_EMAIL, DEMO_ADMIN_EMAIL];
  const [sharedHash, ...demoHashes] = await Promise.all([null, ...demoEmails].map(() => hashPassword(DEMO_PASSWORD)));
  people.forEach((p) => {
    const own = demoEmails.indexOf(p.email);
    const passwordHash = own >= 0 ? demoHashes[own]! : sharedHash!;
    rows.users.push({
      id: p.id,
      email: p.email,
      passwordHash,
      role: p.role,
      emailConfirmedAt: p.createdAt,
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
    });
    rows.userActivity.push({
      userId: p.id,
      activityType: "signup",
      activityData: { country: p.country },
      createdAt: p.createdAt,
    });
  });

  // --- tribes --------------------------------------------------------------------------------------------------
  // Every fan follows 2 to 5 hosts; the demo fan follows the demo host and two others.
  const membership = new Map<string, Set<string>>(hosts.map((h) => [h.id, new Set<string>()]));
  for (const fan of fans) {
    const chosen = fan === demoFan ? [demoHost, hosts[1]!, hosts[4]!] : sample(hosts, int(2, 5));
    for (const host of chosen) membership.get(host.id)!.add(fan.id);
  }
  // The demo host has the biggest tribe, so it leads the featured creators.
  for (const fan of sample(fans, 22)) membership.get(demoHost.id)!.add(fan.id);
  for (const host of hosts) {
    host.members = fans.filter((f) => membership.get(host.id)!.has(f.id));
    for (const fan of host.members) {
      const joined = new Date(Math.max(fan.createdAt.getTime(), host.createdAt.getTime()) + int(1, 20) * DAY);
      rows.tribeMembers.push({
        userId: fan.id,
        hostId: host.id,
        status: chance(0.85) ? "active" : "inactive",
        joinedAt: joined.getTime() > NOW ? daysAgo(1) : joined,
      });
    }
    for (const code of host.spec.shipsTo) rows.userShippingCountries.push({ hostId: host.id, countryCode: code });
  }

  // --- products ------------------------------------------------------------------------------------------------
  for (const host of hosts) {
    host.spec.products.forEach((spec, index) => {
      const id = crypto.randomUUID();
      const colours = spec.colors ?? [];
      const imageUrls = Array.from({ length: spec.images }, (_, n) => {
        const c1 = colours[n % Math.max(colours.length, 1)]?.[1] ?? host.spec.palette[0];
        const safeC1 = isLight(c1) ? host.spec.palette[0] : c1;
        return svg(`products/${host.id}/${id}-${n + 1}.svg`, productSvg(spec.name, safeC1, host.spec.palette[1], n));
      });
      host.products.push({ id, spec, imageUrls, salesCount: 0, revenueCents: 0 });
      const prices = spec.sizes.map((s) => s[1]);
      const likes = int(6, 420);
      const createdAt = new Date(host.createdAt.getTime() + (index + 1) * int(2, 9) * DAY);
      rows.products.push({
        id,
        hostId: host.id,
        name: spec.name,
        description: spec.description,
        category: spec.category,
        shopCategory: spec.shop,
        status: "active",
        basePriceCents: Math.min(...prices),
        priceMinCents: Math.min(...prices),
        priceMaxCents: Math.max(...prices),
        currency: "USD",
        voucherValueCents: spec.voucherValueCents ?? null,
        voucherExpiresAt: spec.category === "voucher" ? daysAhead(int(120, 330)) : null,
        digitalFileKey: spec.category === "digital" ? `private/digital/${host.id}/${id}.txt` : null,
        likeCount: likes,
        viewCount: chance(0.15) ? 0 : likes * int(3, 14),
        commentsCount: int(0, Math.ceil(likes / 12)),
        createdAt: createdAt.getTime() > NOW ? daysAgo(3) : createdAt,
        updatedAt: createdAt.getTime() > NOW ? daysAgo(3) : createdAt,
      });
      if (spec.category === "digital") {
        uploads.push({
          key: `private/digital/${host.id}/${id}.txt`,
          body: `${spec.name}\nby ${host.name}\n\n${spec.description}\n\nThank you for supporting the tribe!\n`,
          contentType: "text/plain; charset=utf-8",
        });
      }
      spec.sizes.forEach(([name, priceCents, availableUnits, dimensions], position) =>
        rows.productSizes.push({
          productId: id,
          name,
          priceCents,
          currency: "USD",
          dimensions: dimensions ?? null,
          availableUnits,
          position,
        }),
      );
      colours.forEach(([name, hex, availableUnits], position) =>
        rows.productColors.push({ productId: id, name, hex, availableUnits, position }),
      );
      imageUrls.forEach((url, position) =>
        rows.productImages.push({ productId: id, url, r2Key: url.slice("/media/".length), position }),
      );
    });
  }
  const productRow = new Map(rows.products.map((p) => [p.id!, p]));
  // The demo fan has liked a few products (counted in like_count).
  for (const product of [demoHost.products[0]!, demoHost.products[2]!, hosts[1]!.products[0]!]) {
    rows.productLikes.push({ userId: demoFan.id, productId: product.id, createdAt: daysAgo(int(1, 20)) });
    productRow.get(product.id)!.likeCount! += 1;
  }

  // --- pools ---------------------------------------------------------------------------------------------------
  /** Pool events are gathered per pool, then numbered and written out by `finishPool`. */
  const poolEvents = new Map<string, PoolEvent[]>();
  const addEvent = (poolId: string, event: PoolEvent) => poolEvents.get(poolId)!.push(event);

  function openPool(host: Host, startAt: Date, endAt: Date) {
    const id = crypto.randomUUID();
    poolEvents.set(id, []);
    rows.prizePools.push({
      id,
      hostId: host.id,
      status: "open",
      targetCents: 1_000_000,
      currency: "USD",
      autoRenew: true,
      startAt,
      endAt,
      createdAt: startAt,
      updatedAt: startAt,
    });
    for (const [name, amountText, quantityText] of host.spec.miniPrizes) {
      rows.prizeMiniPrizes.push({ poolId: id, hostId: host.id, name, amountText, quantityText, createdAt: startAt });
    }
    return id;
  }

  /** Numbers the entries 0..n-1 by time, writes contributions and entries, and sets the pool's totals. */
  function finishPool(poolId: string, host: Host) {
    const events = poolEvents.get(poolId)!.sort((a, b) => a.at.getTime() - b.at.getTime());
    const entries: { entryNumber: number; sourceKey: string; userId: string | null }[] = [];
    let amount = 0;
    for (const event of events) {
      let entryNumber: number | null = null;
      if (event.earnsEntry) {
        entryNumber = entries.length;
        entries.push({ entryNumber, sourceKey: event.sourceKey, userId: event.userId });
        rows.prizeEntries.push({
          poolId,
          entryNumber,
          userId: event.userId,
          sourceType:
            event.sourceType === "host_deposit" ? null : (event.sourceType as schema.NewPrizeEntry["sourceType"]),
          sourceKey: event.sourceKey,
          createdAt: event.at,
        });
        event.onEntry?.(entryNumber);
      }
      if (event.contributionCents > 0) {
        amount += event.contributionCents;
        rows.prizePoolContributions.push({
          poolId,
          hostId: host.id,
          sourceType: event.sourceType,
          sourceKey: event.sourceKey,
          amountCents: event.contributionCents,
          currency: "USD",
          userId: event.userId,
          entryNumber,
          createdAt: event.at,
        });
      }
    }
    const pool = rows.prizePools.find((p) => p.id === poolId)!;
    pool.amountCents = amount;
    pool.entriesCount = entries.length;
    return { pool, entries, amount };
  }

  function hostDeposit(poolId: string, host: Host, cents: number, at: Date) {
    addEvent(poolId, {
      at,
      userId: host.id,
      sourceType: "host_deposit",
      sourceKey: `cs_local_${token(24)}`,
      contributionCents: cents,
      earnsEntry: false,
    });
  }

  // --- orders --------------------------------------------------------------------------------------------------
  let addressNumber = 10;
  function addressFor(person: Person): schema.Address {
    const a = ADDRESSES[person.country] ?? ADDRESSES.MY!;
    addressNumber += int(3, 17);
    return {
      name: person.name,
      street: `${addressNumber} ${a.street}`,
      city: a.city,
      state: a.state,
      postal_code: a.postal,
      country: person.country,
    };
  }

  type OrderStatus = "paid" | "processing" | "shipped" | "completed";
  function addOrder(opts: {
    host: Host;
    buyer: Person;
    product: SeededProduct;
    poolId: string;
    at: Date;
    status?: OrderStatus;
    groupBuyId?: string;
  }) {
    const { host, buyer, product, poolId, at, groupBuyId } = opts;
    const spec = product.spec;
    const inStock = spec.sizes.filter((s) => s[2] > 0);
    const size = pick(inStock.length ? inStock : spec.sizes);
    const colour = spec.colors?.length ? pick(spec.colors) : null;
    const quantity = spec.category === "physical" && chance(0.3) ? int(2, 3) : 1;
    const amountCents = size[1] * quantity;
    const orderId = crypto.randomUUID();
    // Paid through the local provider, as a real checkout is: its session, payment intent and checkout row.
    const sessionId = `cs_local_${token(24)}`;
    const reference = `chk_${token(24)}`;
    const paymentIntentId = localPaymentIntentId(sessionId);
    const age = (NOW - at.getTime()) / DAY;
    const status: OrderStatus =
      opts.status ??
      (spec.category === "digital"
        ? "completed"
        : spec.category === "voucher"
          ? age > 10
            ? "completed"
            : "paid"
          : age > 12
            ? "completed"
            : age > 5
              ? pick(["shipped", "completed"] as const)
              : age > 2
                ? pick(["processing", "shipped"] as const)
                : pick(["paid", "processing"] as const));
    const physical = spec.category === "physical";
    const tracked = physical && (status === "shipped" || status === "completed");
    const carrier = CARRIERS[host.country] ?? "DHL";
    const purchaseMode = groupBuyId ? "group-buy" : "buy-now";
    const order: schema.NewOrder = {
      id: orderId,
      orderNumber: orderNumber(sessionId, orderId),
      userId: buyer.id,
      hostId: host.id,
      productId: product.id,
      groupBuyId: groupBuyId ?? null,
      salesRmCents: groupBuyId ? convertCents(amountCents, "USD", GROUP_BUY_CURRENCY) : null,
      checkoutSessionId: sessionId,
      paymentIntentId,
      status,
      purchaseMode,
      amountCents,
      unitPriceCents: size[1],
      currency: "USD",
      quantity,
      sizeName: size[0],
      colorName: colour?.[0] ?? null,
      customerEmail: buyer.email,
      customerName: buyer.name,
      shippingAddress: physical ? addressFor(buyer) : null,
      billingAddress: null,
      productName: spec.name,
      productImage: product.imageUrls[0] ?? null,
      productCategory: spec.category,
      trackingNumber: tracked ? `TRK-${digits(10)}` : null,
      carrier: tracked ? carrier : null,
      estimatedDeliveryAt: tracked ? new Date(at.getTime() + 7 * DAY) : null,
      poolId,
      metadata: { purchase_mode: purchaseMode, product_name: spec.name, customer_name: buyer.name },
      createdAt: at,
      updatedAt: at,
    };
    rows.orders.push(order);
    const description = `${spec.name} (${[size[0], colour?.[0]].filter(Boolean).join(", ")})${quantity > 1 ? ` x ${quantity}` : ""}`;
    rows.checkoutSessions.push(
      paidLocalCheckoutRow({
        sessionId,
        reference,
        purpose: groupBuyId ? "group_buy" : "product",
        userId: buyer.id,
        hostId: host.id,
        amountCents,
        customerEmail: buyer.email,
        // What createProductCheckout and createGroupBuyCheckout put in the metadata (a group buy's items as
        // encodeCheckoutLines stores them: [product, size, colour, quantity, unit cents]).
        metadata: groupBuyId
          ? {
              purpose: "group_buy",
              group_buy_id: groupBuyId,
              items: JSON.stringify([[product.id, size[0], colour?.[0] ?? "", quantity, size[1]]]),
              shared: "0",
              user_id: buyer.id,
              host_id: host.id,
              description: `Group buy: ${rows.groupBuys.find((g) => g.id === groupBuyId)?.name ?? spec.name}`,
              ...(physical ? { needs_shipping: "1" } : {}),
            }
          : {
              purpose: "product",
              product_id: product.id,
              category: spec.category,
              size: size[0],
              ...(colour ? { color: colour[0] } : {}),
              quantity: String(quantity),
              unit_price_cents: String(size[1]),
              user_id: buyer.id,
              host_id: host.id,
              description,
              ...(physical ? { needs_shipping: "1" } : {}),
            },
        origin: siteOrigin,
        cancelPath: groupBuyId ? `/group-buy-product-selection/${groupBuyId}` : `/buy-now/${product.id}`,
        paidAt: at,
        rates: DEFAULT_REVENUE_RULES,
      }),
    );
    rows.userActivity.push({
      userId: buyer.id,
      activityType: "order_placed",
      activityData: { order_number: order.orderNumber, amount: amountCents },
      createdAt: at,
    });
    product.salesCount += quantity;
    product.revenueCents += amountCents;

    if (tracked) {
      const buyerCity = (ADDRESSES[buyer.country] ?? ADDRESSES.MY!).city;
      const steps: [number, StoredOrderStatus, string, string | null][] = [
        [0.05, "paid", "Order confirmed and payment received", null],
        [1, "processing", "Packed and labelled at the studio", host.spec.city],
        [1.6, "shipped", `Handed to ${carrier}`, host.spec.city],
        [3.2, "shipped", "In transit: arrived at the sorting hub", buyerCity],
      ];
      if (status === "completed") steps.push([5.5, "delivered", "Delivered and signed for", buyerCity]);
      for (const [day, stepStatus, description, location] of steps) {
        const when = new Date(at.getTime() + day * DAY);
        if (when.getTime() < NOW) {
          rows.shippingUpdates.push({ orderId, status: stepStatus, description, location, createdAt: when });
          order.updatedAt = when;
        }
      }
    }
    if (spec.category === "voucher") {
      const redeemed = status === "completed" && chance(0.5);
      rows.vouchers.push({
        code: voucherCode(orderId),
        orderId,
        productId: product.id,
        hostId: host.id,
        buyerId: buyer.id,
        valueCents: spec.voucherValueCents ?? size[1],
        currency: "USD",
        status: redeemed ? "redeemed" : "active",
        expiresAt: productRow.get(product.id)!.voucherExpiresAt!,
        redeemedAt: redeemed ? new Date(at.getTime() + 6 * DAY) : null,
        redeemedBy: redeemed ? host.id : null,
        createdAt: at,
      });
    }
    const source = groupBuyId ? "group_buy_sales" : "shop_sales";
    addEvent(poolId, {
      at,
      userId: buyer.id,
      sourceType: groupBuyId ? "group_buy_entry" : "product_purchase",
      sourceKey: contributionKey(sessionId),
      contributionCents: poolContributionCents(source, amountCents),
      earnsEntry: true,
      onEntry: (n) => {
        order.entryNumber = n;
      },
    });
    return order;
  }

  /** Buyers for a host: mostly its tribe, some outsiders; people the host ships to. */
  const buyerFor = (host: Host) => {
    const shipsTo = new Set(host.spec.shipsTo);
    const pool = chance(0.8) && host.members.length ? host.members : fans;
    const local = pool.filter((f) => shipsTo.has(f.country));
    return pick(local.length ? local : pool);
  };

  /**
   * A game and its guesses between `publishedAt` and `until`: paid guesses feed the pool 100%; only a correct guess
   * earns an entry. Free guesses come from tribe members who shared the game.
   */
  function addGame(
    host: Host,
    spec: GameSpec,
    poolId: string,
    publishedAt: Date,
    until: Date,
    status: "active" | "completed",
    playerCount: number,
  ) {
    const gameId = crypto.randomUUID();
    const game: schema.NewGuessWinGame = {
      id: gameId,
      hostId: host.id,
      question: spec.question,
      description: spec.description,
      imageUrl: svg(
        `games/${host.id}/${gameId}.svg`,
        gameSvg(spec.question, host.name, host.spec.palette[0], host.spec.palette[1]),
      ),
      videoUrl: null,
      videoDurationSeconds: null,
      options: [...spec.options],
      correctAnswer: spec.correct,
      entryFeeCents: spec.feeCents,
      currency: "USD",
      status,
      viewsCount: int(200, 4000),
      likesCount: int(12, 380),
      commentsCount: int(0, 60),
      sharesCount: 0,
      participantsCount: 0,
      totalEntryFeesCents: 0,
      createdAt: publishedAt,
      updatedAt: status === "completed" ? until : publishedAt,
      publishedAt,
      endedAt: status === "completed" ? until : null,
    };
    rows.guessWinGames.push(game);
    const players = sample(
      host.members.filter((m) => m !== demoFan),
      playerCount,
    );
    for (const player of players) {
      const at = new Date(publishedAt.getTime() + random() * (until.getTime() - publishedAt.getTime()));
      const correct = chance(0.45);
      const answer = correct ? spec.correct : pick(spec.options.filter((o) => o !== spec.correct));
      const free = chance(0.2);
      const participantId = crypto.randomUUID();
      const paymentKey = free ? null : `cs_local_${token(24)}`;
      const fee = free ? 0 : chance(0.25) ? spec.feeCents * 2 : spec.feeCents;
      const participant: schema.NewGuessWinParticipant = {
        id: participantId,
        gameId,
        userId: player.id,
        answer,
        isCorrect: correct,
        kind: free ? "free" : "paid",
        entryFeeCents: fee,
        currency: "USD",
        // Nothing is owed for a free guess.
        paymentStatus: "paid",
        paymentKey,
        // Sealed: a correct guess holds an entry only once its game has ended (at its pool round's close).
        poolId: correct && status === "completed" ? poolId : null,
        confirmedAt: at,
        createdAt: at,
      };
      if (free) {
        rows.gameShares.push({ userId: player.id, gameId, hostId: host.id, createdAt: new Date(at.getTime() - HOUR) });
        rows.freeGuessUsage.push({ userId: player.id, gameId, participantId, createdAt: at });
        game.sharesCount! += 1;
      }
      rows.guessWinParticipants.push(participant);
      rows.userActivity.push({
        userId: player.id,
        activityType: "guess_submitted",
        activityData: { game_id: gameId, amount: fee },
        createdAt: at,
      });
      game.participantsCount! += 1;
      game.totalEntryFeesCents! += fee;
      // The fee reaches the pool at payment; the entry of a correct guess is appended when the round closes.
      if (paymentKey && fee > 0) {
        rows.checkoutSessions.push(
          paidLocalCheckoutRow({
            sessionId: paymentKey,
            reference: `chk_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
            purpose: "guess_entry",
            userId: player.id,
            hostId: host.id,
            amountCents: fee,
            customerEmail: player.email,
            metadata: {
              purpose: "guess_entry",
              game_id: gameId,
              answer,
              host_id: host.id,
              user_id: player.id,
              description: spec.question.slice(0, 450),
              game_question: spec.question.slice(0, 450),
              selected_answer: answer.slice(0, 450),
            },
            origin: siteOrigin,
            cancelPath: "/guess-win",
            paidAt: at,
            rates: DEFAULT_REVENUE_RULES,
          }),
        );
        addEvent(poolId, {
          at,
          userId: player.id,
          sourceType: "guess_entry",
          sourceKey: contributionKey(paymentKey),
          contributionCents: poolContributionCents("guess_win_entries", fee),
          earnsEntry: false,
        });
      }
      if (correct && status === "completed") {
        addEvent(poolId, {
          at: until,
          userId: player.id,
          sourceType: "guess_entry",
          sourceKey: `guess:${participantId}`,
          contributionCents: 0,
          earnsEntry: true,
          onEntry: (n) => {
            participant.entryNumber = n;
          },
        });
      }
    }
    return game;
  }

  // --- drawn pools on real Bitcoin blocks (two hosts, historical) -------------------------------------------------
  // Each drawn pool closed just before its block was mined and is fully settled and paid. The commitment each records
  // is the one the fixture can show: tests/fixtures/bitcoin-blocks.json holds no headers below a drawn block, so the
  // only tip it provably descends from is its parent (hash = the block's previous-block hash). The tip's header time
  // is recorded where it is public and known to us (block 839,999: 2024-04-20 00:05:33 UTC, its header rebuilt to its
  // hash), else left out. A commitment at the parent is 1 block past the tip, not 3: the verification page's margin
  // check says so for these two pools (decision 390); every other check passes.
  const HISTORICAL_DRAWS = [
    {
      height: 840_000,
      closedAt: new Date(Date.UTC(2024, 3, 19, 23, 50)),
      committedAt: new Date(Date.UTC(2024, 3, 20, 0, 6)),
      tipTime: 1_713_571_533,
    },
    {
      height: 503_252,
      closedAt: new Date(Date.UTC(2018, 0, 8, 23, 40)),
      committedAt: new Date(Date.UTC(2018, 0, 8, 23, 59)),
      tipTime: null,
    },
  ] as const;
  const drawnHosts = [demoHost, hosts[1]!];
  for (const [i, host] of drawnHosts.entries()) {
    const historical = HISTORICAL_DRAWS[i]!;
    const block = bitcoinBlocks.blocks.find((candidate) => candidate.height === historical.height)!;
    const targetReached = i === 1;
    const endAt = historical.closedAt;
    const startAt = new Date(endAt.getTime() - 36 * DAY);
    const targetCents = targetReached ? 300_000 : 1_000_000;
    const poolId = crypto.randomUUID();
    poolEvents.set(poolId, []);
    rows.prizePools.push({
      id: poolId,
      hostId: host.id,
      status: "open",
      targetCents,
      currency: "USD",
      autoRenew: true,
      startAt,
      endAt,
      createdAt: startAt,
    });
    const miniPrizeId = crypto.randomUUID();
    rows.prizeMiniPrizes.push({
      id: miniPrizeId,
      poolId,
      hostId: host.id,
      name: host.spec.miniPrizes[0]![0],
      amountText: host.spec.miniPrizes[0]![1],
      quantityText: host.spec.miniPrizes[0]![2],
      createdAt: startAt,
    });
    const span = endAt.getTime() - startAt.getTime();
    const orderCount = int(3, 4);
    for (let n = 0; n < orderCount; n++) {
      const at = new Date(startAt.getTime() + ((n + 0.5) / (orderCount + 1)) * span * (targetReached ? 0.5 : 1));
      addOrder({ host, buyer: buyerFor(host), product: pick(host.products), poolId, at, status: "completed" });
    }
    addGame(
      host,
      PAST_GAMES[i]!,
      poolId,
      new Date(startAt.getTime() + 2 * DAY),
      new Date(startAt.getTime() + span * (targetReached ? 0.55 : 0.9)),
      "completed",
      int(7, 9),
    );
    // The host's own deposit, rounded so that the pool is a whole multiple of 5 cents (60% of it is exact).
    const fromOrders = poolEvents.get(poolId)!.reduce((sum, e) => sum + e.contributionCents, 0);
    let deposit = targetReached ? targetCents - fromOrders + int(500, 2500) : int(150_000, 320_000);
    deposit += (5 - ((fromOrders + deposit) % 5)) % 5;
    hostDeposit(poolId, host, deposit, new Date(startAt.getTime() + span * 0.05));

    const { pool, entries, amount } = finishPool(poolId, host);
    const closedAt = endAt;
    // Drawn once the block had its 6 confirmations.
    const drawnAt = new Date(block.timestamp * 1000 + 70 * 60 * 1000);
    const winningNumber = winnerIndex(block.id, entries.length);
    const winner = entries[winningNumber]!;
    Object.assign(pool, {
      status: "drawn",
      closedAt,
      closeReason: targetReached ? "target_reached" : "timer_expired",
      entriesDigest: await entriesDigest(entries),
      drawBlockHeight: block.height,
      drawBlockHash: block.id,
      drawBlockHeader: {
        id: block.id,
        height: block.height,
        version: block.version,
        previousblockhash: block.previousblockhash,
        merkle_root: block.merkle_root,
        timestamp: block.timestamp,
        bits: block.bits,
        nonce: block.nonce,
      },
      winnerEntryNumber: winningNumber,
      winnerUserId: winner.userId,
      drawnAt,
      updatedAt: drawnAt,
    } satisfies Partial<schema.NewPrizePool>);
    const winnerName = personById.get(winner.userId ?? "")?.name ?? "Anonymous";
    const commitment = {
      poolId,
      seq: 0,
      kind: "commit" as const,
      blockHeight: block.height,
      tipHeight: block.height - 1,
      tipHash: block.previousblockhash,
      tipTime: historical.tipTime,
      highestTip: block.height - 1,
      reason: null,
      createdAt: historical.committedAt.getTime(),
    };
    const commitmentRecordHash = await commitmentHash(GENESIS_LOG_HASH, commitment);
    rows.drawCommitments.push({
      ...commitment,
      createdAt: historical.committedAt,
      prevHash: GENESIS_LOG_HASH,
      hash: commitmentRecordHash,
    });
    rows.prizeDraws.push({
      poolId,
      attempt: 0,
      blockHeight: block.height,
      blockHash: block.id,
      blockHeader: pool.drawBlockHeader!,
      chainHeaders: [],
      commitmentSeq: 0,
      winnerEntryNumber: winningNumber,
      winnerUserId: winner.userId,
      drawnAt,
    });
    const prizeWinnerId = crypto.randomUUID();
    rows.prizeWinners.push({
      id: prizeWinnerId,
      poolId,
      userId: winner.userId,
      winnerName,
      prizeAmountCents: distributePool(amount).mainPrize,
      currency: "USD",
      prizeType: "main",
      entryNumber: winningNumber,
      blockHash: block.id,
      createdAt: drawnAt,
    });
    if (winner.userId) {
      rows.userActivity.push({
        userId: winner.userId,
        activityType: "prize_won",
        activityData: { amount: distributePool(amount).mainPrize, pool_id: poolId },
        createdAt: drawnAt,
      });
      // The mail the draw sent the winner at the time (the outbox keeps what would have been sent).
      const payableOn = new Date(drawnAt.getTime() + PRIZE_SETTLEMENT_DAYS * DAY).toISOString().slice(0, 10);
      const mail = winnerMail(winnerName, formatCents(distributePool(amount).mainPrize, "USD"), payableOn);
      rows.mailOutbox.push({
        toAddress: personById.get(winner.userId)!.email,
        subject: mail.subject,
        textBody: mail.text,
        createdAt: drawnAt,
      });
    }
    // The mini prize is drawn from the same block by the rule (domain/mini-prizes.ts), as the cron does.
    const miniAwards = await drawMiniPrizes(
      block.id,
      [{ quantityText: host.spec.miniPrizes[0]![2] }],
      miniPrizeCandidates(entries, winner.userId),
    );
    for (const award of miniAwards) {
      rows.miniPrizeWinners.push({
        miniPrizeId,
        poolId,
        userId: award.userId,
        entryNumber: award.entryNumber,
        // The other hosts delivered theirs; the demo host still has theirs to mark delivered.
        deliveredAt: host === demoHost ? null : new Date(drawnAt.getTime() + 5 * DAY),
        createdAt: drawnAt,
      });
    }
    // The host's 25% is booked once the settlement period is over.
    const settledAt = new Date(drawnAt.getTime() + PRIZE_SETTLEMENT_DAYS * DAY);
    rows.earningsLedger.push(
      poolShareEarning({ id: poolId, hostId: host.id, amountCents: amount, currency: "USD", settledAt }),
    );
    // The main prize was paid after the settlement period.
    if (winner.userId) {
      const paidAt = new Date(settledAt.getTime() + DAY);
      rows.payouts.push({
        userId: winner.userId,
        amountCents: distributePool(amount).mainPrize,
        currency: "USD",
        payoutType: "prize_winner",
        prizeWinnerId,
        status: "completed",
        manualNote: "Paid by bank transfer after the settlement period.",
        payableAt: settledAt,
        completedAt: paidAt,
        createdAt: drawnAt,
        updatedAt: paidAt,
      });
    }
  }

  // --- open pools, games, orders -------------------------------------------------------------------------------
  const openPools = new Map<string, string>();
  for (const host of hosts) {
    const startAt = daysAgo(int(8, 24));
    const poolId = openPool(host, startAt, daysAhead(host === demoHost ? 18 : int(5, 40)));
    openPools.set(host.id, poolId);
    if (chance(0.7) || host === demoHost)
      hostDeposit(poolId, host, int(20, 120) * 1000, new Date(startAt.getTime() + 3 * HOUR));
  }

  // Ad revenue the platform owner recorded for the demo host (the last two calendar months), split as the admin
  // page splits it: the host's share into the earnings ledger, the pool's part into the host's open pool.
  {
    const today = new Date(NOW);
    const monthStart = (back: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1));
    const isoDay = (d: Date) => d.toISOString().slice(0, 10);
    const reports: [back: number, amountCents: number, impressions: number, clicks: number, recordedDaysAgo: number][] =
      [
        [2, 18_640, 41_200, 538, 5],
        [1, 23_115, 52_870, 701, 2],
      ];
    for (const [back, amountCents, impressions, clicks, recordedDaysAgo] of reports) {
      const id = crypto.randomUUID();
      const periodStart = isoDay(monthStart(back));
      const periodEnd = isoDay(new Date(monthStart(back - 1).getTime() - DAY));
      const recordedAt = daysAgo(recordedDaysAgo);
      rows.adRevenueReports.push({
        id,
        hostId: demoHost.id,
        periodStart,
        periodEnd,
        amountCents,
        currency: "USD",
        impressions,
        clicks,
        recordedBy: admin.id,
        createdAt: recordedAt,
      });
      const rule = DEFAULT_REVENUE_RULES.ad_revenue;
      rows.earningsLedger.push(
        adRevenueEarning(
          { id, hostId: demoHost.id, amountCents, currency: "USD", periodStart, periodEnd, recordedAt },
          rule,
        ),
      );
      addEvent(openPools.get(demoHost.id)!, {
        at: recordedAt,
        userId: null,
        sourceType: "ad_revenue",
        sourceKey: `ad:${id}`,
        contributionCents: saleShares(amountCents, rule).poolCents,
        earnsEntry: false,
      });
    }
  }

  // Group buy: the demo host's, active, with four products and some group-buy orders.
  const groupBuyId = crypto.randomUUID();
  {
    const startAt = daysAgo(6);
    rows.groupBuys.push({
      id: groupBuyId,
      hostId: demoHost.id,
      name: "Raya Open House Group Buy",
      description:
        "Dress the whole house for Hari Raya together: the more the tribe buys, the bigger everyone's discount. You pay the normal price today and get the difference back automatically when we unlock a higher tier.",
      status: "active",
      targetCents: 1_000_000,
      currency: GROUP_BUY_CURRENCY,
      endAt: daysAhead(12),
      createdAt: startAt,
      updatedAt: startAt,
    });
    [
      [0, 5],
      [200_000, 8],
      [500_000, 12],
      [800_000, 15],
    ].forEach(([salesThresholdCents, discountPercent], position) =>
      rows.groupBuyTiers.push({
        groupBuyId,
        salesThresholdCents: salesThresholdCents!,
        discountPercent: discountPercent!,
        position,
      }),
    );
    const linked = [demoHost.products[0]!, demoHost.products[1]!, demoHost.products[2]!, demoHost.products[5]!];
    for (const product of linked) rows.groupBuyProducts.push({ groupBuyId, productId: product.id });
    const buyers = [
      demoFan,
      ...sample(
        demoHost.members.filter((m) => m !== demoFan),
        4,
      ),
    ];
    let sales = 0;
    buyers.forEach((buyer, n) => {
      const order = addOrder({
        host: demoHost,
        buyer,
        product: pick(linked),
        poolId: openPools.get(demoHost.id)!,
        at: new Date(startAt.getTime() + (n + 1) * 0.9 * DAY + int(1, 10) * HOUR),
        status: n === 0 ? "processing" : pick(["paid", "processing"] as const),
        groupBuyId,
      });
      sales += order.salesRmCents ?? 0;
    });
    const groupBuy = rows.groupBuys[0]!;
    groupBuy.currentSalesCents = sales;
    groupBuy.currentParticipants = new Set(buyers.map((b) => b.id)).size;
    rows.groupBuyShares.push({ userId: buyers[1]!.id, groupBuyId, createdAt: daysAgo(2) });
  }

  // Buy-now orders in the open pools: the demo fan has one of each kind from the demo host.
  {
    const poolId = openPools.get(demoHost.id)!;
    const byCategory = (c: ProductSpec["category"]) => demoHost.products.find((p) => p.spec.category === c)!;
    addOrder({
      host: demoHost,
      buyer: demoFan,
      product: demoHost.products[0]!,
      poolId,
      at: daysAgo(7.5),
      status: "shipped",
    });
    addOrder({
      host: demoHost,
      buyer: demoFan,
      product: byCategory("voucher"),
      poolId,
      at: daysAgo(4.2),
      status: "paid",
    });
    addOrder({
      host: demoHost,
      buyer: demoFan,
      product: byCategory("digital"),
      poolId,
      at: daysAgo(2.1),
      status: "completed",
    });
    addOrder({
      host: hosts[4]!,
      buyer: demoFan,
      product: hosts[4]!.products[1]!,
      poolId: openPools.get(hosts[4]!.id)!,
      at: daysAgo(1.3),
      status: "paid",
    });
  }
  for (const host of hosts) {
    const poolId = openPools.get(host.id)!;
    const pool = rows.prizePools.find((p) => p.id === poolId)!;
    const count = host === demoHost ? 5 : int(2, 3);
    for (let n = 0; n < count; n++) {
      const startMs = pool.startAt!.getTime();
      const at = new Date(startMs + random() * (NOW - startMs - HOUR));
      addOrder({ host, buyer: buyerFor(host), product: pick(host.products), poolId, at });
    }
  }

  // Guess & Win games with guesses in the open pools.
  for (const host of hosts) {
    host.spec.games.forEach((spec, index) =>
      addGame(
        host,
        spec,
        openPools.get(host.id)!,
        daysAgo(int(2, 12) + index),
        new Date(NOW - HOUR),
        "active",
        int(3, 7),
      ),
    );
  }
  // The demo fan has shared the demo host's first game (a free guess is available) and liked it.
  {
    const first = rows.guessWinGames.find((g) => g.hostId === demoHost.id)!;
    rows.gameShares.push({ userId: demoFan.id, gameId: first.id!, hostId: demoHost.id, createdAt: daysAgo(1) });
    first.sharesCount! += 1;
    rows.gameLikes.push({ userId: demoFan.id, gameId: first.id!, createdAt: daysAgo(1) });
    first.likesCount! += 1;
  }

  for (const host of hosts) finishPool(openPools.get(host.id)!, host);

  // --- profiles (after the orders, so the totals are known) ---------------------------------------------------
  const followers = new Map(hosts.map((h) => [h.id, h.members.length]));
  for (const person of people) {
    const host = hosts.find((h) => h.id === person.id);
    const hostOrders = host ? rows.orders.filter((o) => o.hostId === host.id) : [];
    const avatarUrl = host
      ? host.avatarUrl
      : svg(`avatars/${person.id}.svg`, avatarSvg(person.name, person.palette[0], person.palette[1]));
    rows.userProfiles.push({
      userId: person.id,
      slug: host?.spec.slug ?? null,
      creatorName: person.name,
      email: person.email,
      bio: host?.spec.bio ?? null,
      category: host?.spec.category ?? "General",
      website: host?.spec.website ?? null,
      avatarUrl,
      coverImageUrl: host
        ? svg(`covers/${host.id}.svg`, coverSvg(host.name, host.spec.palette[0], host.spec.palette[1]))
        : null,
      verified: host?.spec.verified ?? false,
      status: "active",
      followersCount: followers.get(person.id) ?? 0,
      tribeCount: followers.get(person.id) ?? 0,
      totalRevenueCents: hostOrders.reduce((sum, o) => sum + o.amountCents, 0),
      totalSales: hostOrders.length,
      currency: "USD",
      prizePoolTargetCents: 1_000_000,
      payoutMethodConfigured: false,
      profilePublic: person.public,
      onboardingCompleted: true,
      country: person.country,
      createdAt: person.createdAt,
      updatedAt: person.createdAt,
    });
  }
  for (const host of hosts) {
    for (const product of host.products) {
      const row = productRow.get(product.id)!;
      row.salesCount = product.salesCount;
      row.revenueCents = product.revenueCents;
    }
  }

  // No payout method is seeded: a payout account is a Stripe Connect account (locally the test provider's), which the
  // demo host connects from /payouts like any host.

  const chat: [from: Person, to: Person, body: string, hoursAgo: number][] = [
    [demoFan, demoHost, "Hi Nadia! Does the Indigo cushion cover fade in the wash?", 30],
    [demoHost, demoFan, "Hi Sofia! Not at all, we fix the dye twice. Cold wash and it stays deep blue for years.", 29],
    [demoFan, demoHost, "Perfect, ordering two for the Raya group buy then.", 28],
    [demoHost, demoFan, "Yay! Your tracking number is on the order page once it ships.", 5],
  ];
  const [userLowId, userHighId] = conversationPair(demoFan.id, demoHost.id);
  const conversationId = crypto.randomUUID();
  rows.chatConversations.push({
    id: conversationId,
    userLowId,
    userHighId,
    createdAt: new Date(NOW - 30 * HOUR),
    lastMessageAt: new Date(NOW - 5 * HOUR),
  });
  for (const [from, to, body, hoursAgo] of chat) {
    rows.chatMessages.push({
      conversationId,
      senderId: from.id,
      recipientId: to.id,
      body,
      createdAt: new Date(NOW - hoursAgo * HOUR),
      readAt: hoursAgo > 6 ? new Date(NOW - (hoursAgo - 1) * HOUR) : null,
    });
  }

  // The host's earnings ledger: one row per paid buy-now order and per paid guess, built by the same functions the
  // app books them with (domain/earnings.ts). Group-buy orders stay Pending until their group buy is finalised.
  const paidStatuses = new Set(["paid", "processing", "pending_shipping", "shipped", "delivered", "completed"]);
  for (const order of rows.orders) {
    if (order.purchaseMode === "group-buy" || !paidStatuses.has(order.status ?? "")) continue;
    rows.earningsLedger.push(
      shopSaleEarning(
        {
          id: order.id!,
          hostId: order.hostId,
          amountCents: order.amountCents,
          currency: order.currency ?? "USD",
          productName: order.productName ?? "",
          productCategory: order.productCategory ?? "physical",
          paidAt: order.createdAt!,
        },
        DEFAULT_REVENUE_RULES.shop_sales,
      ),
    );
  }
  const gameById = new Map(rows.guessWinGames.map((g) => [g.id!, g]));
  for (const p of rows.guessWinParticipants) {
    const game = gameById.get(p.gameId);
    if (!game || p.kind !== "paid" || p.paymentStatus !== "paid" || !p.entryFeeCents) continue;
    rows.earningsLedger.push(
      guessEntryEarning(
        {
          participantId: p.id!,
          hostId: game.hostId,
          amountCents: p.entryFeeCents,
          currency: "USD",
          question: game.question,
          paidAt: p.createdAt!,
        },
        DEFAULT_REVENUE_RULES.guess_win_entries,
      ),
    );
  }

  rows.platformSettings.push({
    settingKey: REVENUE_RULES_SETTING_KEY,
    settingValue: {
      shop_sales: { platform_fee: 0, prize_pool_contribution: 10, host_share: 90 },
      guess_win_entries: { platform_fee: 0, prize_pool_contribution: 100, host_share: 0 },
      ad_revenue: { platform_fee: 20, prize_pool_contribution: 30, host_share: 50 },
      group_buy_sales: { platform_fee: 0, prize_pool_contribution: 10, host_share: 90 },
    },
  });
  // The marker goes in the same transaction as the data: a seed either happened completely or not at all.
  rows.platformSettings.push({
    settingKey: SEED_MARKER_KEY,
    settingValue: { version: SEED_VERSION, seededAt: new Date(NOW).toISOString() },
  });

  // Write the media first (overwriting is harmless if the database write then fails).
  for (let i = 0; i < uploads.length; i += 16) {
    await Promise.all(
      uploads.slice(i, i + 16).map((u) => media.put(u.key, u.body, { httpMetadata: { contentType: u.contentType } })),
    );
  }
  return { rows, uploads: uploads.length };
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main() {
  const started = Date.now();
  const persistPath = path.resolve(PERSIST_DIR, "v3");
  const proxy = await getPlatformProxy<Record<string, unknown>>({
    configPath: "wrangler.toml",
    // getPlatformProxy takes the `v3` folder itself (wrangler --persist-to and the vite plugin add `v3`).
    persist: { path: persistPath },
    remoteBindings: false,
  });
  try {
    const d1 = proxy.env.DB as Parameters<typeof drizzle>[0];
    const media = proxy.env.MEDIA as R2Like;
    const db = drizzle(d1, { schema });

    let seeded: unknown;
    try {
      seeded = await db.query.platformSettings.findFirst({
        where: (s, { eq }) => eq(s.settingKey, SEED_MARKER_KEY),
      });
    } catch (error) {
      throw new Error(
        `Cannot read the local database (${error instanceof Error ? error.message : error}). Apply the migrations first: wrangler d1 migrations apply DB --local`,
      );
    }
    if (seeded) {
      console.log(`Seed: demo data already present in ${PERSIST_DIR} (marker '${SEED_MARKER_KEY}'); nothing to do.`);
      return;
    }

    // The checkout rows' success and cancel addresses, as the local checkout writes them where `npm start` serves.
    const siteOrigin = typeof proxy.env.SITE_ORIGIN === "string" ? proxy.env.SITE_ORIGIN : "http://localhost:8787";
    const { rows, uploads } = await buildRows(media, siteOrigin);

    // Parent tables before children (D1 enforces foreign keys); multi-row inserts of at most 100 parameters.
    const statements: BatchItem<"sqlite">[] = [];
    const insert = <T extends SQLiteTable>(table: T, values: T["$inferInsert"][]) => {
      const perStatement = Math.max(1, Math.floor(MAX_PARAMS / Object.keys(getTableColumns(table)).length));
      for (let i = 0; i < values.length; i += perStatement) {
        statements.push(db.insert(table).values(values.slice(i, i + perStatement) as never));
      }
    };
    insert(schema.users, rows.users);
    insert(schema.userProfiles, rows.userProfiles);
    insert(schema.userShippingCountries, rows.userShippingCountries);
    insert(schema.tribeMembers, rows.tribeMembers);
    insert(schema.products, rows.products);
    insert(schema.productSizes, rows.productSizes);
    insert(schema.productColors, rows.productColors);
    insert(schema.productImages, rows.productImages);
    insert(schema.productLikes, rows.productLikes);
    insert(schema.prizePools, rows.prizePools);
    insert(schema.prizeMiniPrizes, rows.prizeMiniPrizes);
    insert(schema.guessWinGames, rows.guessWinGames);
    insert(schema.guessWinParticipants, rows.guessWinParticipants);
    insert(schema.gameShares, rows.gameShares);
    insert(schema.gameLikes, rows.gameLikes);
    insert(schema.freeGuessUsage, rows.freeGuessUsage);
    insert(schema.groupBuys, rows.groupBuys);
    insert(schema.groupBuyTiers, rows.groupBuyTiers);
    insert(schema.groupBuyProducts, rows.groupBuyProducts);
    insert(schema.groupBuyShares, rows.groupBuyShares);
    insert(schema.checkoutSessions, rows.checkoutSessions);
    insert(schema.orders, rows.orders);
    insert(schema.shippingUpdates, rows.shippingUpdates);
    insert(schema.vouchers, rows.vouchers);
    insert(schema.prizePoolContributions, rows.prizePoolContributions);
    insert(schema.prizeEntries, rows.prizeEntries);
    insert(schema.prizeWinners, rows.prizeWinners);
    insert(schema.prizeDraws, rows.prizeDraws);
    insert(schema.drawCommitments, rows.drawCommitments);
    insert(schema.payouts, rows.payouts);
    insert(schema.miniPrizeWinners, rows.miniPrizeWinners);
    insert(schema.adRevenueReports, rows.adRevenueReports);
    insert(schema.earningsLedger, rows.earningsLedger);
    insert(schema.payoutMethods, rows.payoutMethods);
    insert(schema.chatConversations, rows.chatConversations);
    insert(schema.chatMessages, rows.chatMessages);
    insert(schema.userActivity, rows.userActivity);
    insert(schema.mailOutbox, rows.mailOutbox);
    insert(schema.platformSettings, rows.platformSettings);
    const [first, ...rest] = statements;
    if (!first) throw new Error("Seed: nothing to insert");
    await db.batch([first, ...rest]);

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `Seed: ${rows.users.length} accounts, ${rows.products.length} products, ${rows.guessWinGames.length} games, ` +
        `${rows.orders.length} orders, ${rows.prizePools.length} pools (${rows.prizeWinners.filter((w) => w.prizeType === "main").length} drawn), ` +
        `${uploads} media files in ${seconds} s. Sign in as ${DEMO_HOST_EMAIL} or ${DEMO_FAN_EMAIL} with password ${DEMO_PASSWORD}.`,
    );
  } finally {
    await proxy.dispose();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
