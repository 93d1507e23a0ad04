// The demo content: hosts with their shops and games, the drawn pools' past games, fans, and the addresses and
// carriers their orders use. Only data lives here; the modules beside it turn it into rows.
import type { ProductCategory, ShopCategory } from "../../app/domain/catalog";
import { DEMO_HOST_EMAIL } from "../../app/lib/demo";

export type Size = readonly [name: string, priceCents: number, availableUnits: number, dimensions?: string];
export type Color = readonly [name: string, hex: string, availableUnits: number];
export type ProductSpec = {
  name: string;
  description: string;
  category: ProductCategory;
  shop: Exclude<ShopCategory, "All">;
  sizes: readonly Size[];
  colors?: readonly Color[];
  images: 1 | 2 | 3;
  voucherValueCents?: number;
};
export type GameSpec = {
  question: string;
  description: string;
  options: readonly string[];
  correct: string;
  feeCents: number;
};
export type HostSpec = {
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

export const HOSTS: readonly HostSpec[] = [
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
export const PAST_GAMES: readonly GameSpec[] = [
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

export const FANS: readonly (readonly [name: string, country: string])[] = [
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
export const ADDRESSES: Record<string, { street: string; city: string; state: string; postal: string }> = {
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

export const CARRIERS: Record<string, string> = {
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
