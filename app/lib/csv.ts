// A small RFC 4180 CSV writer (pure: no I/O), used by the order and voucher exports.
//
// - Fields are separated by commas and records end with CRLF (the last one too).
// - A field is quoted when it contains a comma, a double quote, a CR or an LF, or starts or ends with a space;
//   quotes inside a quoted field are doubled.
// - Text that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading
//   apostrophe, unless it is a plain number such as "-12.50". Numbers passed as numbers are written as they are.

export type CsvCell = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]|^ | $/;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Text of one cell, without quoting: null and undefined are empty. */
function cellText(cell: CsvCell, neutraliseFormulas: boolean): string {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  if (typeof cell === "boolean") return cell ? "true" : "false";
  if (neutraliseFormulas && FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell)) return `'${cell}`;
  return cell;
}

/** One field as written in the file: quoted (with doubled quotes) only when it has to be. */
export function csvField(cell: CsvCell, { neutraliseFormulas = true }: { neutraliseFormulas?: boolean } = {}): string {
  const text = cellText(cell, neutraliseFormulas);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvRow(cells: readonly CsvCell[], options?: { neutraliseFormulas?: boolean }): string {
  return `${cells.map((c) => csvField(c, options)).join(",")}\r\n`;
}

/** A whole file: the header row, then one row per record. */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly CsvCell[])[],
  options?: { neutraliseFormulas?: boolean },
): string {
  let out = csvRow(header, options);
  for (const row of rows) out += csvRow(row, options);
  return out;
}

/**
 * Minor units as a plain decimal for a spreadsheet, without thousands separators or a label:
 * `centsToDecimal(123456)` -> "1234.56", `centsToDecimal(-5)` -> "-0.05", `centsToDecimal(1500, 0)` -> "1500".
 */
export function centsToDecimal(cents: number, digits: 0 | 2 = 2): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const text = String(Math.abs(cents));
  if (digits === 0) return sign + text;
  const padded = text.padStart(3, "0");
  return `${sign}${padded.slice(0, -2)}.${padded.slice(-2)}`;
}
