// The add/edit product form: one zod schema for the action, with the product's messages verbatim. The browser applies
// the same rules through HTML attributes (required, min, step, type). Field names are flat (`sizes.0.name`,
// `colors.1.units`, `images.0`) so a plain form post carries everything.
import { z } from "zod";
import { PRODUCT_CATEGORIES, PRODUCT_SHOP_CATEGORIES } from "~/domain/catalog";
import { parseDay } from "~/domain/countdown";
import { parseMoneyToCents, parseWholeUnitsToCents } from "~/domain/money";

export const PRODUCT_NAME_MAX = 200;
export const PRODUCT_DESCRIPTION_MAX = 5000;
/** Size names, dimensions and colour names. */
export const OPTION_TEXT_MAX = 100;

export const PRODUCT_MESSAGES = {
  name: "Please enter a product name",
  description: "Please enter a product description",
  voucherValue: "Please enter a voucher value",
  voucherExpiry: "Please enter a voucher expiry date",
  voucherExpiryFuture: "Expiry date must be in the future",
  /** Our own message (the date input offers only real days): a day that does not exist, such as 2027-02-31. */
  voucherExpiryInvalid: "That expiry date does not exist; please choose a real day",
  nameTooLong: `Product name must be at most ${PRODUCT_NAME_MAX} characters`,
  descriptionTooLong: `Product description must be at most ${PRODUCT_DESCRIPTION_MAX} characters`,
  sizeTooLong: `Size names and dimensions must be at most ${OPTION_TEXT_MAX} characters`,
  colorTooLong: `Colour names must be at most ${OPTION_TEXT_MAX} characters`,
  sizes: "Please add at least one size with name, price, and available units",
  colors: "Please add at least one color with name and available units",
  images: "Please add at least one product image",
  imageUrl: "Please use an uploaded image or an https:// image URL",
  digitalFile: "Please upload the file again",
  notAuthenticated: "User is not authenticated!",
  createFailed: "Unexpected error while creating product",
  updateFailed: "Error updating product!",
  deleteFailed: "Failed to delete product",
} as const;

export const MAX_SIZES = 20;
export const MAX_COLORS = 20;
export const MAX_IMAGES = 8;

export type SizeRow = { name: string; price: string; units: string; dimensions: string };
export type ColorRow = { name: string; hex: string; units: string };

/** The form's values as typed (what the inputs show after an error, or when editing). */
export type ProductFormValues = {
  name: string;
  description: string;
  category: string;
  shopCategory: string;
  voucherValue: string;
  voucherExpiry: string;
  digitalFileKey: string;
  sizes: SizeRow[];
  colors: ColorRow[];
  images: string[];
};

/**
 * A posted text field, bounded so a huge post costs nothing. Fields with a length rule are read one character past
 * it, so text over the limit reaches the schema and is refused with a message, never silently cut.
 */
function text(form: FormData, name: string, max = 5000): string {
  const v = form.get(name);
  return typeof v === "string" ? v.slice(0, max) : "";
}

/** Row indexes present in the form for a prefix such as "sizes" (`sizes.3.name` gives 3), sorted. */
function rowIndexes(form: FormData, prefix: string, max: number): number[] {
  const found = new Set<number>();
  for (const key of form.keys()) {
    const m = new RegExp(`^${prefix}\\.(\\d{1,3})(?:\\.|$)`).exec(key);
    if (m) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b).slice(0, max + 5);
}

/** Reads the flat field names back into rows. */
export function readProductForm(form: FormData): ProductFormValues {
  return {
    name: text(form, "name", PRODUCT_NAME_MAX + 1),
    description: text(form, "description", PRODUCT_DESCRIPTION_MAX + 1),
    category: text(form, "category", 20),
    shopCategory: text(form, "shopCategory", 50),
    voucherValue: text(form, "voucherValue", 20),
    voucherExpiry: text(form, "voucherExpiry", 20),
    digitalFileKey: text(form, "digitalFileKey", 300),
    sizes: rowIndexes(form, "sizes", MAX_SIZES).map((i) => ({
      name: text(form, `sizes.${i}.name`, OPTION_TEXT_MAX + 1),
      price: text(form, `sizes.${i}.price`, 20),
      units: text(form, `sizes.${i}.units`, 20),
      dimensions: text(form, `sizes.${i}.dimensions`, OPTION_TEXT_MAX + 1),
    })),
    colors: rowIndexes(form, "colors", MAX_COLORS).map((i) => ({
      name: text(form, `colors.${i}.name`, OPTION_TEXT_MAX + 1),
      hex: text(form, `colors.${i}.hex`, 20),
      units: text(form, `colors.${i}.units`, 20),
    })),
    images: rowIndexes(form, "images", MAX_IMAGES).map((i) => text(form, `images.${i}`, 1000)),
  };
}

const UNITS = /^\d{1,7}$/;
const HEX = /^#[0-9a-fA-F]{6}$/;

/** A colour row's hex as its swatch and picker show it: the row's own when valid, else black (the picker's default). */
export function swatchHex(hex: string): string {
  return HEX.test(hex.trim()) ? hex.trim().toLowerCase() : "#000000";
}

function blank(...values: string[]): boolean {
  return values.every((v) => v.trim() === "");
}

/** An image URL we accept: one of our uploaded product images, or an https URL. */
export function isAcceptedImageUrl(url: string): boolean {
  if (/^\/media\/products\/[A-Za-z0-9._\-/]+$/.test(url) && !url.includes("..")) return true;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && !!parsed.hostname;
  } catch {
    return false;
  }
}

/** YYYY-MM-DD of a date in UTC. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The form's default voucher expiry: one year ahead. */
export function defaultVoucherExpiry(now = new Date()): string {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return isoDate(d);
}

export function productFormSchema(now: Date) {
  return z
    .object({
      name: z.string().trim().min(1, PRODUCT_MESSAGES.name).max(PRODUCT_NAME_MAX, PRODUCT_MESSAGES.nameTooLong),
      description: z
        .string()
        .trim()
        .min(1, PRODUCT_MESSAGES.description)
        .max(PRODUCT_DESCRIPTION_MAX, PRODUCT_MESSAGES.descriptionTooLong),
      category: z.enum(PRODUCT_CATEGORIES, { error: "Please choose a category" }),
      shopCategory: z
        .string()
        .refine(
          (v) => v === "" || (PRODUCT_SHOP_CATEGORIES as readonly string[]).includes(v),
          "Please choose a shop category",
        )
        .transform((v) => (v === "" ? null : (v as (typeof PRODUCT_SHOP_CATEGORIES)[number]))),
      voucherValue: z.string().trim(),
      voucherExpiry: z.string().trim(),
      digitalFileKey: z.string().trim(),
      sizes: z
        .array(
          z.object({
            name: z.string().max(OPTION_TEXT_MAX, PRODUCT_MESSAGES.sizeTooLong),
            price: z.string(),
            units: z.string(),
            dimensions: z.string().max(OPTION_TEXT_MAX, PRODUCT_MESSAGES.sizeTooLong),
          }),
        )
        .max(MAX_SIZES),
      colors: z
        .array(
          z.object({
            name: z.string().max(OPTION_TEXT_MAX, PRODUCT_MESSAGES.colorTooLong),
            hex: z.string(),
            units: z.string(),
          }),
        )
        .max(MAX_COLORS),
      images: z.array(z.string()).max(MAX_IMAGES),
    })
    .transform((v, ctx) => {
      const isVoucher = v.category === "voucher";

      let voucherValueCents: number | null = null;
      let voucherExpiresAt: Date | null = null;
      if (isVoucher) {
        voucherValueCents = parseWholeUnitsToCents(v.voucherValue);
        if (voucherValueCents === null || voucherValueCents < 100) {
          ctx.addIssue({ code: "custom", path: ["voucherValue"], message: PRODUCT_MESSAGES.voucherValue });
        }
        if (v.voucherExpiry === "") {
          ctx.addIssue({ code: "custom", path: ["voucherExpiry"], message: PRODUCT_MESSAGES.voucherExpiry });
        } else {
          const dayShaped = /^\d{4}-\d{2}-\d{2}$/.test(v.voucherExpiry);
          const date = parseDay(v.voucherExpiry);
          if (!date) {
            // A day that does not exist (2027-02-31) is refused, not rolled over into the next month.
            const message = dayShaped ? PRODUCT_MESSAGES.voucherExpiryInvalid : PRODUCT_MESSAGES.voucherExpiry;
            ctx.addIssue({ code: "custom", path: ["voucherExpiry"], message });
          } else if (date.getTime() <= now.getTime()) {
            ctx.addIssue({ code: "custom", path: ["voucherExpiry"], message: PRODUCT_MESSAGES.voucherExpiryFuture });
          } else {
            voucherExpiresAt = date;
          }
        }
      }

      // Blank rows are ignored; a row that is started must be complete. Every product needs a size row, a voucher
      // too: checkout prices and counts stock by size, so a voucher without one could never be bought (decision 200).
      // Vouchers need no colours.
      let sizesOk = true;
      const sizes = v.sizes
        .filter((s) => !blank(s.name, s.price, s.units, s.dimensions))
        .map((s, position) => {
          const priceCents = parseMoneyToCents(s.price);
          const units = s.units.trim();
          if (!s.name.trim() || priceCents === null || !UNITS.test(units)) sizesOk = false;
          return {
            name: s.name.trim(),
            priceCents: priceCents ?? 0,
            availableUnits: UNITS.test(units) ? Number(units) : 0,
            dimensions: s.dimensions.trim() || null,
            position,
          };
        });
      if (!sizesOk || sizes.length === 0) {
        ctx.addIssue({ code: "custom", path: ["sizes"], message: PRODUCT_MESSAGES.sizes });
      }

      let colorsOk = true;
      const colors = v.colors
        .filter((c) => !blank(c.name, c.units))
        .map((c, position) => {
          const units = c.units.trim();
          if (!c.name.trim() || !UNITS.test(units)) colorsOk = false;
          return {
            name: c.name.trim(),
            hex: HEX.test(c.hex.trim()) ? c.hex.trim().toLowerCase() : null,
            availableUnits: UNITS.test(units) ? Number(units) : 0,
            position,
          };
        });
      if (!colorsOk || (!isVoucher && colors.length === 0)) {
        ctx.addIssue({ code: "custom", path: ["colors"], message: PRODUCT_MESSAGES.colors });
      }

      const images = v.images.map((url) => url.trim()).filter((url) => url !== "");
      if (images.length === 0) {
        ctx.addIssue({ code: "custom", path: ["images"], message: PRODUCT_MESSAGES.images });
      } else if (!images.every(isAcceptedImageUrl)) {
        ctx.addIssue({ code: "custom", path: ["images"], message: PRODUCT_MESSAGES.imageUrl });
      }

      const prices = sizes.map((s) => s.priceCents);
      const priceMinCents = prices.length ? Math.min(...prices) : null;
      const priceMaxCents = prices.length ? Math.max(...prices) : null;
      return {
        name: v.name,
        description: v.description,
        category: v.category,
        shopCategory: v.shopCategory,
        voucherValueCents: isVoucher ? voucherValueCents : null,
        voucherExpiresAt: isVoucher ? voucherExpiresAt : null,
        digitalFileKey: v.category === "digital" && v.digitalFileKey !== "" ? v.digitalFileKey : null,
        sizes,
        colors,
        images,
        priceMinCents,
        priceMaxCents,
        basePriceCents: priceMinCents ?? voucherValueCents ?? 0,
      };
    });
}

export type ProductInput = z.output<ReturnType<typeof productFormSchema>>;

/** First message per top-level field. */
export function productFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

export function emptyProductForm(now = new Date()): ProductFormValues {
  return {
    name: "",
    description: "",
    category: "physical",
    shopCategory: "",
    voucherValue: "",
    voucherExpiry: defaultVoucherExpiry(now),
    digitalFileKey: "",
    sizes: [{ name: "", price: "", units: "", dimensions: "" }],
    colors: [{ name: "", hex: "#000000", units: "" }],
    images: [""],
  };
}
