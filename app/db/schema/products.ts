// Products: the product, its sizes, colours, images and likes.
import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { PRODUCT_CATEGORIES, PRODUCT_STATUSES, PRODUCT_SHOP_CATEGORIES } from "../../domain/catalog";
import { id, timestamp, createdAt, updatedAt, cents, currency, count } from "./columns";
import { users } from "./accounts";

export const products = sqliteTable(
  "products",
  {
    id: id(),
    hostId: text("host_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    category: text("category", { enum: PRODUCT_CATEGORIES }).notNull().default("physical"),
    /** One of PRODUCT_SHOP_CATEGORIES (what the /shop filter matches), or null. */
    shopCategory: text("shop_category", { enum: PRODUCT_SHOP_CATEGORIES }),
    status: text("status", { enum: PRODUCT_STATUSES }).notNull().default("active"),
    basePriceCents: cents("base_price_cents").notNull().default(0),
    /** Lowest and highest size price (null without sizes). */
    priceMinCents: cents("price_min_cents"),
    priceMaxCents: cents("price_max_cents"),
    currency: currency(),
    voucherValueCents: cents("voucher_value_cents"),
    voucherExpiresAt: timestamp("voucher_expires_at"),
    /** R2 key of the downloadable file of a digital product. */
    digitalFileKey: text("digital_file_key"),
    likeCount: count("like_count"),
    viewCount: count("view_count"),
    commentsCount: count("comments_count"),
    salesCount: count("sales_count"),
    revenueCents: cents("revenue_cents").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("products_status_created_idx").on(t.status, t.createdAt),
    index("products_host_status_idx").on(t.hostId, t.status),
    index("products_shop_category_idx").on(t.shopCategory),
    // /shop and the host shop pages: newest first within a status, a shop category or a host.
    index("products_status_created_id_idx").on(t.status, t.createdAt, t.id),
    index("products_status_category_created_idx").on(t.status, t.shopCategory, t.createdAt, t.id),
    index("products_host_status_created_idx").on(t.hostId, t.status, t.createdAt, t.id),
    // "Most popular" (likes, then views, then newest): walked backwards, so a page reads its rows and no sort.
    index("products_status_popular_idx").on(t.status, t.likeCount, t.viewCount, t.createdAt, t.id),
  ],
);

export const productSizes = sqliteTable(
  "product_sizes",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    priceCents: cents("price_cents").notNull(),
    currency: currency(),
    dimensions: text("dimensions"),
    availableUnits: count("available_units"),
    position: count("position"),
  },
  (t) => [index("product_sizes_product_idx").on(t.productId, t.position)],
);

export const productColors = sqliteTable(
  "product_colors",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    hex: text("hex"),
    availableUnits: count("available_units"),
    position: count("position"),
  },
  (t) => [index("product_colors_product_idx").on(t.productId, t.position)],
);

export const productImages = sqliteTable(
  "product_images",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    r2Key: text("r2_key"),
    /** 0 is the main image. */
    position: count("position"),
  },
  (t) => [index("product_images_product_idx").on(t.productId, t.position)],
);

export const productLikes = sqliteTable(
  "product_likes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index("product_likes_product_idx").on(t.productId),
    // A fan's wishlist, newest like first (/wishlist).
    index("product_likes_user_created_idx").on(t.userId, t.createdAt),
  ],
);

export type Product = typeof products.$inferSelect;
export type NewProduct = typeof products.$inferInsert;
export type ProductSize = typeof productSizes.$inferSelect;
export type NewProductSize = typeof productSizes.$inferInsert;
export type ProductColor = typeof productColors.$inferSelect;
export type NewProductColor = typeof productColors.$inferInsert;
export type ProductImage = typeof productImages.$inferSelect;
export type NewProductImage = typeof productImages.$inferInsert;
export type ProductLike = typeof productLikes.$inferSelect;
