import { useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { PRODUCT_CATEGORIES, PRODUCT_SHOP_CATEGORIES } from "~/domain/catalog";
import {
  MAX_COLORS,
  MAX_IMAGES,
  MAX_SIZES,
  OPTION_TEXT_MAX,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_NAME_MAX,
  type ProductFormValues,
  swatchHex,
} from "~/lib/product-form";
import { Field, FormError, SelectField } from "./form";
import { Button, Card, LinkButton } from "./page";

const CATEGORY_LABELS: Record<(typeof PRODUCT_CATEGORIES)[number], string> = {
  physical: "Physical Product",
  digital: "Digital Product",
  voucher: "Voucher",
};

function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-2 text-sm text-red-600">
      {message}
    </p>
  );
}

/**
 * A colour's hex: a swatch painted with it (bordered, so white shows too, and named for screen readers) beside the
 * native colour picker, whose own swatch fills its box instead of the thin line the browser's padding leaves.
 */
function ColourSwatchInput({
  index,
  name,
  hex,
  onChange,
}: {
  index: number;
  name: string;
  hex: string;
  onChange: (hex: string) => void;
}) {
  const id = `colors.${index}.hex`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        Hex
      </label>
      <div className="mt-1 flex items-center gap-2">
        <span
          className="block h-9 w-9 shrink-0 rounded-full border border-gray-400 shadow-inner"
          style={{ backgroundColor: hex }}
          role="img"
          aria-label={`${name.trim() || "New colour"} (${hex})`}
        />
        <input
          id={id}
          name={id}
          type="color"
          value={hex}
          onChange={(e) => onChange(e.target.value)}
          className="block h-9 w-12 cursor-pointer rounded-md border border-gray-300 bg-white p-1 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none [&::-moz-color-swatch]:rounded [&::-moz-color-swatch]:border-0 [&::-webkit-color-swatch]:rounded [&::-webkit-color-swatch]:border-0 [&::-webkit-color-swatch-wrapper]:p-0"
        />
      </div>
    </div>
  );
}

/** Rows keyed by a stable id so removing a middle row keeps the others' inputs. */
function useRows<T>(initial: T[], blankRow: () => T) {
  const next = useRef(initial.length || 1);
  const [rows, setRows] = useState(() =>
    (initial.length ? initial : [blankRow()]).map((value, key) => ({ key, value })),
  );
  return {
    rows,
    add: () => setRows((r) => [...r, { key: next.current++, value: blankRow() }]),
    remove: (key: number) => setRows((r) => (r.length <= 1 ? r : r.filter((row) => row.key !== key))),
    set: (key: number, value: T) => setRows((r) => r.map((row) => (row.key === key ? { key, value } : row))),
  };
}

/** Sends a file to the upload API with progress; resolves with the JSON answer or rejects with its message. */
function uploadWithProgress(
  path: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ url?: string; key: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    xhr.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: { url?: string; key?: string; error?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.key) resolve({ url: body.url, key: body.key });
      else reject(new Error(body.error ?? "Upload failed. Please try again."));
    };
    xhr.onerror = () => reject(new Error("Upload failed. Please try again."));
    xhr.send(file);
  });
}

function ImageRow({
  index,
  value,
  onChange,
  onRemove,
  canRemove,
}: {
  index: number;
  value: string;
  onChange: (v: string) => void;
  onRemove: () => void;
  canRemove: boolean;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function onFile(file: File | undefined) {
    if (!file) return;
    setError(null);
    if (!file.type.startsWith("image/")) return setError("Please select an image file");
    if (file.size > 5_242_880) return setError("File size must be less than 5MB");
    setProgress(0);
    try {
      const { url } = await uploadWithProgress("/api/uploads/image", file, setProgress);
      if (url) onChange(url);
    } catch (e) {
      setError(e instanceof Error ? e.message : "Upload failed. Please try again.");
    } finally {
      setProgress(null);
    }
  }
  return (
    <div className="flex flex-wrap items-start gap-3 rounded-lg border border-gray-200 p-3">
      <div className="h-16 w-16 shrink-0 overflow-hidden rounded bg-gray-100">
        {value ? <img src={value} alt="" className="h-full w-full object-cover" /> : null}
      </div>
      <div className="min-w-0 flex-1 space-y-2">
        <label className="block text-sm font-medium text-gray-700" htmlFor={`images.${index}`}>
          {index === 0 ? "Main image" : `Image ${index + 1}`} URL
        </label>
        <input
          id={`images.${index}`}
          name={`images.${index}`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="https://… or upload a file"
          required={index === 0}
          pattern="(https://.+|/media/products/.+)"
          className="block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
        />
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          aria-label="Upload image"
          onChange={(e) => onFile(e.target.files?.[0])}
          className="block w-full max-w-full text-sm"
        />
        {progress !== null ? (
          <progress max={100} value={progress} className="block w-full" aria-label="Upload progress">
            {progress}%
          </progress>
        ) : null}
        {error ? <p className="text-sm text-red-600">{error}</p> : null}
      </div>
      <Button
        variant="ghost"
        size="sm"
        onClick={onRemove}
        disabled={!canRemove}
        aria-label={`Remove image ${index + 1}`}
      >
        Remove
      </Button>
    </div>
  );
}

function DigitalFileField({ defaultKey, error }: { defaultKey: string; error?: string }) {
  const [key, setKey] = useState(defaultKey);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  async function onFile(file: File | undefined) {
    if (!file) return;
    setUploadError(null);
    if (file.size > 52_428_800) return setUploadError("File size must be less than 50MB");
    setProgress(0);
    try {
      setKey((await uploadWithProgress("/api/uploads/file", file, setProgress)).key);
    } catch (e) {
      setUploadError(e instanceof Error ? e.message : "Upload failed. Please try again.");
    } finally {
      setProgress(null);
    }
  }
  return (
    <div>
      <label className="block text-sm font-medium text-gray-700" htmlFor="digital-file">
        Downloadable file (up to 50MB)
      </label>
      <input type="hidden" name="digitalFileKey" value={key} />
      <input
        id="digital-file"
        type="file"
        onChange={(e) => onFile(e.target.files?.[0])}
        className="mt-1 block w-full max-w-full text-sm"
      />
      {key ? (
        <p className="mt-1 text-sm text-green-700">File uploaded. Buyers download it through a private link.</p>
      ) : null}
      {progress !== null ? (
        <progress max={100} value={progress} className="block w-full" aria-label="Upload progress" />
      ) : null}
      {uploadError ? <p className="mt-1 text-sm text-red-600">{uploadError}</p> : null}
      <FieldError id="digitalFileKey-error" message={error} />
    </div>
  );
}

/** The add and edit product form; a plain form post works without JavaScript (one row each). */
export function ProductForm({
  defaults,
  errors = {},
  submitLabel,
  cancelTo,
  minExpiry,
}: {
  defaults: ProductFormValues;
  errors?: Record<string, string>;
  submitLabel: string;
  cancelTo: string;
  minExpiry: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [category, setCategory] = useState(defaults.category || "physical");
  const sizes = useRows(defaults.sizes, () => ({ name: "", price: "", units: "", dimensions: "" }));
  const colors = useRows(defaults.colors, () => ({ name: "", hex: "#000000", units: "" }));
  const images = useRows(defaults.images, () => "");
  const isVoucher = category === "voucher";

  return (
    <Form method="post" className="space-y-6">
      <FormError>{errors.form}</FormError>
      <Card className="space-y-4">
        <Field
          label="Product name"
          name="name"
          defaultValue={defaults.name}
          required
          maxLength={PRODUCT_NAME_MAX}
          error={errors.name}
        />
        <div>
          <label htmlFor="description" className="block text-sm font-medium text-gray-700">
            Description
          </label>
          <textarea
            id="description"
            name="description"
            defaultValue={defaults.description}
            required
            maxLength={PRODUCT_DESCRIPTION_MAX}
            rows={4}
            aria-invalid={errors.description ? true : undefined}
            className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
          />
          <FieldError id="description-error" message={errors.description} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Product type"
            name="category"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            options={PRODUCT_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }))}
            error={errors.category}
          />
          <SelectField
            label="Shop category"
            name="shopCategory"
            defaultValue={defaults.shopCategory}
            placeholder="None"
            options={PRODUCT_SHOP_CATEGORIES.map((c) => ({ value: c, label: c }))}
            error={errors.shopCategory}
          />
        </div>
        {isVoucher ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Voucher value (USD)"
              name="voucherValue"
              type="number"
              min={1}
              step={1}
              required
              defaultValue={defaults.voucherValue}
              error={errors.voucherValue}
            />
            <Field
              label="Voucher expiry date"
              name="voucherExpiry"
              type="date"
              min={minExpiry}
              required
              defaultValue={defaults.voucherExpiry}
              error={errors.voucherExpiry}
            />
          </div>
        ) : null}
        {category === "digital" ? (
          <DigitalFileField defaultKey={defaults.digitalFileKey} error={errors.digitalFileKey} />
        ) : null}
      </Card>

      <Card>
        <h2 className="text-lg font-semibold text-gray-900">Sizes and prices</h2>
        <div className="mt-3 space-y-3">
          {sizes.rows.map((row, i) => (
            <div key={row.key} className="grid grid-cols-2 gap-2 sm:grid-cols-[1fr_7rem_6rem_1fr_auto] sm:items-end">
              <Field
                label="Size"
                name={`sizes.${i}.name`}
                id={`sizes.${i}.name`}
                maxLength={OPTION_TEXT_MAX}
                value={row.value.name}
                onChange={(e) => sizes.set(row.key, { ...row.value, name: e.target.value })}
                required
              />
              <Field
                label="Price (USD)"
                name={`sizes.${i}.price`}
                id={`sizes.${i}.price`}
                type="number"
                min={0}
                step={0.01}
                value={row.value.price}
                onChange={(e) => sizes.set(row.key, { ...row.value, price: e.target.value })}
                required
              />
              <Field
                label="Units"
                name={`sizes.${i}.units`}
                id={`sizes.${i}.units`}
                type="number"
                min={0}
                step={1}
                value={row.value.units}
                onChange={(e) => sizes.set(row.key, { ...row.value, units: e.target.value })}
                required
              />
              <Field
                label="Dimensions"
                name={`sizes.${i}.dimensions`}
                id={`sizes.${i}.dimensions`}
                maxLength={OPTION_TEXT_MAX}
                value={row.value.dimensions}
                onChange={(e) => sizes.set(row.key, { ...row.value, dimensions: e.target.value })}
              />
              <Button variant="ghost" size="sm" onClick={() => sizes.remove(row.key)} disabled={sizes.rows.length <= 1}>
                Remove
              </Button>
            </div>
          ))}
        </div>
        <FieldError id="sizes-error" message={errors.sizes} />
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          onClick={sizes.add}
          disabled={sizes.rows.length >= MAX_SIZES}
        >
          Add Size
        </Button>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold text-gray-900">Colours</h2>
        <div className="mt-3 space-y-3">
          {colors.rows.map((row, i) => (
            <div key={row.key} className="grid grid-cols-2 gap-2 sm:grid-cols-[1fr_6.5rem_6rem_auto] sm:items-end">
              <Field
                label="Colour"
                name={`colors.${i}.name`}
                id={`colors.${i}.name`}
                maxLength={OPTION_TEXT_MAX}
                value={row.value.name}
                onChange={(e) => colors.set(row.key, { ...row.value, name: e.target.value })}
                required={!isVoucher}
              />
              <ColourSwatchInput
                index={i}
                name={row.value.name}
                hex={swatchHex(row.value.hex)}
                onChange={(hex) => colors.set(row.key, { ...row.value, hex })}
              />
              <Field
                label="Units"
                name={`colors.${i}.units`}
                id={`colors.${i}.units`}
                type="number"
                min={0}
                step={1}
                value={row.value.units}
                onChange={(e) => colors.set(row.key, { ...row.value, units: e.target.value })}
                required={!isVoucher}
              />
              <Button
                variant="ghost"
                size="sm"
                onClick={() => colors.remove(row.key)}
                disabled={colors.rows.length <= 1}
              >
                Remove
              </Button>
            </div>
          ))}
        </div>
        <FieldError id="colors-error" message={errors.colors} />
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          onClick={colors.add}
          disabled={colors.rows.length >= MAX_COLORS}
        >
          Add Colour
        </Button>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold text-gray-900">Images</h2>
        <p className="mt-1 text-sm text-gray-600">
          Use images of at least 800×800 pixels (PNG, JPEG, WebP or GIF, up to 5MB). The first image is the main image.
        </p>
        <div className="mt-3 space-y-3">
          {images.rows.map((row, i) => (
            <ImageRow
              key={row.key}
              index={i}
              value={row.value}
              onChange={(v) => images.set(row.key, v)}
              onRemove={() => images.remove(row.key)}
              canRemove={images.rows.length > 1}
            />
          ))}
        </div>
        <FieldError id="images-error" message={errors.images} />
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          onClick={images.add}
          disabled={images.rows.length >= MAX_IMAGES}
        >
          Add Image
        </Button>
      </Card>

      <div className="flex flex-wrap justify-end gap-3">
        <LinkButton to={cancelTo} variant="secondary">
          Cancel
        </LinkButton>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
