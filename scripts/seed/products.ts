// Products and their options: sizes, colours, images (and a digital product's file), and the demo fan's likes.
import type * as schema from "../../app/db/schema";
import type { ProductSpec } from "./content";
import type { Host, Seed } from "./context";
import { digitalProductFile } from "./digital-file";
import { isLight, productSvg } from "./media";
import { chance, DAY, daysAgo, daysAhead, int, NOW } from "./random";

function addProduct(seed: Seed, host: Host, spec: ProductSpec, index: number): void {
  const { rows, uploads } = seed;
  const id = crypto.randomUUID();
  const file =
    spec.category === "digital"
      ? digitalProductFile({ name: spec.name, description: spec.description, hostName: host.name })
      : null;
  const fileKey = file ? `private/digital/${host.id}/${id}.${file.extension}` : null;
  const colours = spec.colors ?? [];
  const imageUrls = Array.from({ length: spec.images }, (_, n) => {
    const c1 = colours[n % Math.max(colours.length, 1)]?.[1] ?? host.spec.palette[0];
    const safeC1 = isLight(c1) ? host.spec.palette[0] : c1;
    return uploads.svg(
      `products/${host.id}/${id}-${n + 1}.svg`,
      productSvg(spec.name, safeC1, host.spec.palette[1], n),
    );
  });
  host.products.push({ id, spec, imageUrls, salesCount: 0, revenueCents: 0 });
  const prices = spec.sizes.map((s) => s[1]);
  const likes = int(6, 420);
  const createdAt = new Date(host.createdAt.getTime() + (index + 1) * int(2, 9) * DAY);
  const product: schema.NewProduct = {
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
    digitalFileKey: fileKey,
    likeCount: likes,
    viewCount: chance(0.15) ? 0 : likes * int(3, 14),
    commentsCount: int(0, Math.ceil(likes / 12)),
    createdAt: createdAt.getTime() > NOW ? daysAgo(3) : createdAt,
    updatedAt: createdAt.getTime() > NOW ? daysAgo(3) : createdAt,
  };
  rows.products.push(product);
  seed.productRow.set(id, product);
  if (file && fileKey) uploads.file(fileKey, file.body, file.contentType);
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
}

export function addProducts(seed: Seed): void {
  const { rows, hosts, demoHost, demoFan, productRow } = seed;
  for (const host of hosts) host.spec.products.forEach((spec, index) => addProduct(seed, host, spec, index));
  // The demo fan has liked a few products (counted in like_count).
  for (const product of [demoHost.products[0]!, demoHost.products[2]!, hosts[1]!.products[0]!]) {
    rows.productLikes.push({ userId: demoFan.id, productId: product.id, createdAt: daysAgo(int(1, 20)) });
    productRow.get(product.id)!.likeCount! += 1;
  }
}

/** Copies the sales the orders counted onto the product rows. */
export function setProductSales(seed: Seed): void {
  for (const host of seed.hosts) {
    for (const product of host.products) {
      const row = seed.productRow.get(product.id)!;
      row.salesCount = product.salesCount;
      row.revenueCents = product.revenueCents;
    }
  }
}
