// The bench's ceiling: a trivial Worker that returns one fixed ~20 KB HTML page (no bindings, no I/O). Served on
// the same local workerd as the app (`wrangler dev`), its requests per second are what the key pages are held to.
const ROW = (i) =>
  `<li class="card"><a href="/product/${i}"><h3>Product ${i}</h3><p>A fixed line of text so the page weighs about as much as a real one.</p><span class="price">$${(i * 7) % 100}.00</span></a></li>`;
const ITEMS = Array.from({ length: 110 }, (_, i) => ROW(i)).join("\n");
const HTML = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ceiling</title></head><body><main><h1>Fixed page</h1><ul>
${ITEMS}
</ul></main></body></html>`;

export default {
  fetch() {
    return new Response(HTML, { headers: { "content-type": "text/html; charset=utf-8" } });
  },
};
