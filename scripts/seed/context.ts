// What the seed's modules share: the rows being built (one list per table, written in one batch at the end), the
// people and hosts made first, and the uploads.
import type * as schema from "../../app/db/schema";
import type { EarningRow } from "../../app/domain/earnings";
import type { ContributionType } from "../../app/domain/revenue";
import type { HostSpec, ProductSpec } from "./content";
import type { Uploads } from "./media";
import type { PoolLedger } from "./pools";

type Insert<T extends { $inferInsert: unknown }> = T["$inferInsert"];

export type Rows = {
  users: schema.NewUser[];
  userProfiles: schema.NewUserProfile[];
  userShippingCountries: Insert<typeof schema.userShippingCountries>[];
  tribeMembers: schema.NewTribeMember[];
  products: schema.NewProduct[];
  productSizes: schema.NewProductSize[];
  productColors: schema.NewProductColor[];
  productImages: schema.NewProductImage[];
  productLikes: Insert<typeof schema.productLikes>[];
  prizePools: schema.NewPrizePool[];
  prizeMiniPrizes: schema.NewPrizeMiniPrize[];
  guessWinGames: schema.NewGuessWinGame[];
  guessWinParticipants: schema.NewGuessWinParticipant[];
  gameShares: Insert<typeof schema.gameShares>[];
  gameLikes: Insert<typeof schema.gameLikes>[];
  gameSaves: Insert<typeof schema.gameSaves>[];
  freeGuessUsage: Insert<typeof schema.freeGuessUsage>[];
  groupBuys: schema.NewGroupBuy[];
  groupBuyTiers: schema.NewGroupBuyTier[];
  groupBuyProducts: Insert<typeof schema.groupBuyProducts>[];
  groupBuyShares: Insert<typeof schema.groupBuyShares>[];
  checkoutSessions: schema.NewCheckoutSession[];
  orders: schema.NewOrder[];
  shippingUpdates: schema.NewShippingUpdate[];
  vouchers: schema.NewVoucher[];
  prizePoolContributions: schema.NewPrizePoolContribution[];
  prizeEntries: schema.NewPrizeEntry[];
  freeEntries: Insert<typeof schema.freeEntries>[];
  postalEntries: Insert<typeof schema.postalEntries>[];
  prizeWinners: schema.NewPrizeWinner[];
  prizeDraws: Insert<typeof schema.prizeDraws>[];
  drawCommitments: Insert<typeof schema.drawCommitments>[];
  transparencyLog: Insert<typeof schema.transparencyLog>[];
  payouts: Insert<typeof schema.payouts>[];
  prizeClaims: Insert<typeof schema.prizeClaims>[];
  mailOutbox: Insert<typeof schema.mailOutbox>[];
  notifications: Insert<typeof schema.notifications>[];
  payoutMethods: schema.NewPayoutMethod[];
  chatConversations: Insert<typeof schema.chatConversations>[];
  chatMessages: schema.NewChatMessage[];
  userActivity: schema.NewUserActivity[];
  platformSettings: Insert<typeof schema.platformSettings>[];
  miniPrizeWinners: Insert<typeof schema.miniPrizeWinners>[];
  adRevenueReports: Insert<typeof schema.adRevenueReports>[];
  earningsLedger: EarningRow[];
  spendLimits: Insert<typeof schema.spendLimits>[];
};

export function emptyRows(): Rows {
  return {
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
    gameSaves: [],
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
    freeEntries: [],
    postalEntries: [],
    prizeWinners: [],
    prizeDraws: [],
    drawCommitments: [],
    transparencyLog: [],
    payouts: [],
    prizeClaims: [],
    payoutMethods: [],
    chatConversations: [],
    chatMessages: [],
    userActivity: [],
    mailOutbox: [],
    notifications: [],
    platformSettings: [],
    miniPrizeWinners: [],
    adRevenueReports: [],
    earningsLedger: [],
    spendLimits: [],
  };
}

export type Person = { id: string; email: string; name: string; country: string; createdAt: Date };
/** A person with what their account and profile need. */
export type Account = Person & { role: "user" | "admin"; public: boolean; palette: readonly [string, string] };
export type Host = Person & { spec: HostSpec; avatarUrl: string; products: SeededProduct[]; members: Person[] };
export type SeededProduct = {
  id: string;
  spec: ProductSpec;
  imageUrls: string[];
  salesCount: number;
  revenueCents: number;
};

/** Something that earns a pool entry or feeds the pool, in time order. */
export type PoolEvent = {
  at: Date;
  userId: string | null;
  sourceType: ContributionType;
  sourceKey: string;
  contributionCents: number;
  earnsEntry: boolean;
  /** Called with the entry number once numbers are assigned. */
  onEntry?: (entryNumber: number) => void;
};

/** The accounts made first, which every later step refers to. */
export type Accounts = {
  admin: Person;
  people: Account[];
  hosts: Host[];
  fans: Person[];
  demoHost: Host;
  demoFan: Person;
  personById: Map<string, Account>;
};

export type Seed = Accounts & {
  rows: Rows;
  uploads: Uploads;
  /** The checkout rows' success and cancel addresses, as the local checkout writes them. */
  siteOrigin: string;
  /** Product rows by id, whose counters later steps update. */
  productRow: Map<string, schema.NewProduct>;
  pools: PoolLedger;
};
