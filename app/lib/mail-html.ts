// The HTML part of a mail, made from its plain-text part: escaped, paragraphs kept, links made clickable.

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Escaped text with its http(s) links as anchors and its line breaks kept. */
function paragraph(text: string): string {
  return escapeHtml(text)
    .replace(/https?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\n/g, "<br>");
}

/** A small HTML document of the text's paragraphs (blank-line separated), with an optional footer. */
export function mailHtml(text: string, footer?: string): string {
  const body = text
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${paragraph(p)}</p>`)
    .join("");
  const foot = footer ? `<hr><p style="color:#6b7280;font-size:12px">${paragraph(footer)}</p>` : "";
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5">${body}${foot}</body></html>`;
}
