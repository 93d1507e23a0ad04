// Images: simple SVG artwork generated here, stored in R2 and served by the app under /media/, and the collector
// of every file the seed uploads (images and the digital products' files).

export type R2Like = {
  put(key: string, value: string | Uint8Array, options?: { httpMetadata?: { contentType?: string } }): Promise<unknown>;
};

/** The files to upload, gathered while the rows are built and written before the database. */
export class Uploads {
  readonly files: { key: string; body: string | Uint8Array; contentType: string }[] = [];

  /** Adds an SVG image and returns the URL the app serves it under. */
  svg(key: string, body: string): string {
    this.files.push({ key, body, contentType: "image/svg+xml" });
    return `/media/${key}`;
  }

  /** Adds a file as it is (a digital product's download). */
  file(key: string, body: string | Uint8Array, contentType: string): void {
    this.files.push({ key, body, contentType });
  }

  /** Writes the files, 16 at a time (overwriting is harmless if the database write then fails). */
  async write(media: R2Like): Promise<number> {
    for (let i = 0; i < this.files.length; i += 16) {
      await Promise.all(
        this.files
          .slice(i, i + 16)
          .map((u) => media.put(u.key, u.body, { httpMetadata: { contentType: u.contentType } })),
      );
    }
    return this.files.length;
  }
}

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

export function productSvg(name: string, c1: string, c2: string, variant: number): string {
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

export function avatarSvg(name: string, c1: string, c2: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256" role="img" aria-label="${escapeXml(name)}">
<defs>${gradient("g", c1, c2, 45)}</defs>
<rect width="256" height="256" fill="url(#g)"/><circle cx="210" cy="40" r="70" fill="#fff" opacity="0.15"/>
<text x="128" y="150" text-anchor="middle" ${FONT} font-size="96" font-weight="700" fill="#fff">${escapeXml(initials(name))}</text>
</svg>`;
}

export function coverSvg(name: string, c1: string, c2: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="400" viewBox="0 0 1200 400" role="img" aria-label="${escapeXml(name)} cover">
<defs>${gradient("g", c1, c2, 20)}</defs>
<rect width="1200" height="400" fill="url(#g)"/>
<path d="M0 300 C 200 220, 400 380, 600 300 S 1000 220, 1200 300 V400 H0 Z" fill="#fff" opacity="0.12"/>
<path d="M0 340 C 250 280, 450 420, 700 340 S 1050 280, 1200 340 V400 H0 Z" fill="#000" opacity="0.1"/>
<circle cx="1030" cy="90" r="120" fill="#fff" opacity="0.12"/><circle cx="160" cy="70" r="60" fill="#fff" opacity="0.1"/>
</svg>`;
}

export function gameSvg(question: string, hostName: string, c1: string, c2: string): string {
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
export function isLight(hex: string): boolean {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return false;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => Number.parseInt(h, 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.72;
}
