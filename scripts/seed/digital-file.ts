// A digital product's file as the seed stores it in R2 (under private/digital/, read by /api/downloads): a small
// PDF 1.4 document written here, object by object with its cross-reference table, so the demo needs no network and
// no committed binary.

export type DigitalFile = { extension: string; body: Uint8Array; contentType: string };

const PAGE_WIDTH = 595; // A4, in points
const PAGE_HEIGHT = 842;
const MARGIN = 56;
const LINE_CHARS = 86; // what fits between the margins at 11 pt Helvetica
const MAX_LINES = 50;

/**
 * Text as a PDF literal string in a standard font (WinAnsi): accents dropped, typographic marks made plain, anything
 * else outside printable ASCII shown as '?', and the string's delimiters escaped.
 */
function pdfString(text: string): string {
  const plain = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/[^\x20-\x7e]/g, "?");
  return `(${plain.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Words wrapped into lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width = LINE_CHARS): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A one-page PDF 1.4 document: `title` in bold, then `lines` (each wrapped to the page), in Helvetica. The bytes are
 * one character each (the header's binary comment marks the file as binary), so every offset in the
 * cross-reference table is the object's byte offset.
 */
export function simplePdf(title: string, lines: string[], info: { author?: string } = {}): Uint8Array {
  const body = lines.flatMap((l) => (l.trim() ? wrap(l) : [""])).slice(0, MAX_LINES);
  const content = [
    "BT",
    "/F1 20 Tf",
    `${MARGIN} ${PAGE_HEIGHT - MARGIN - 20} Td`,
    `${pdfString(title)} Tj`,
    "ET",
    "BT",
    "/F2 11 Tf",
    "15 TL",
    `${MARGIN} ${PAGE_HEIGHT - MARGIN - 56} Td`,
    ...body.map((l, i) => `${i === 0 ? "" : "T* "}${pdfString(l)} Tj`),
    "ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      "/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfString(title)}${info.author ? ` /Author ${pdfString(info.author)}` : ""} /Producer (Tribe demo seed) >>`,
  ];
  let out = "%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n";
  const offsets = objects.map((object, i) => {
    const offset = out.length;
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0));
}

/** The file a buyer of a seeded digital product downloads: a PDF of the product, its host and description. */
export function digitalProductFile(product: { name: string; description: string; hostName: string }): DigitalFile {
  return {
    extension: "pdf",
    body: simplePdf(
      product.name,
      [
        `by ${product.hostName}`,
        "",
        product.description,
        "",
        "This copy is for the buyer's own use. Print it, keep it on your phone, and come back to it any time.",
        "",
        "Thank you for supporting the tribe!",
      ],
      { author: product.hostName },
    ),
    contentType: "application/pdf",
  };
}
