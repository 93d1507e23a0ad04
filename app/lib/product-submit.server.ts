import {
  productFieldErrors,
  productFormSchema,
  readProductForm,
  PRODUCT_MESSAGES,
  type ProductFormValues,
  type ProductInput,
} from "./product-form";
import { isOwnDigitalFileKey } from "./uploads.server";

export type ProductSubmission =
  { ok: true; input: ProductInput } | { ok: false; values: ProductFormValues; errors: Record<string, string> };

/** Reads and checks an add/edit product form post (the same rules for both). */
export async function readProductSubmission(
  request: Request,
  userId: string,
  now = new Date(),
): Promise<ProductSubmission> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    form = new FormData();
  }
  const values = readProductForm(form);
  const result = productFormSchema(now).safeParse(values);
  if (!result.success) return { ok: false, values, errors: productFieldErrors(result.error) };
  const key = result.data.digitalFileKey;
  if (key && !isOwnDigitalFileKey(key, userId)) {
    return { ok: false, values, errors: { digitalFileKey: PRODUCT_MESSAGES.digitalFile } };
  }
  return { ok: true, input: result.data };
}
