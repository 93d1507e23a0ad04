import fogOfWarJs from "../node_modules/react-router/dist/production/lib/dom/ssr/fog-of-war.js?raw";
import serverRouterJs from "../node_modules/react-router/dist/production/lib/dom/ssr/server.js?raw";
import staticRouterJs from "../node_modules/react-router/dist/production/lib/dom/server.js?raw";
import routerUtilsJs from "../node_modules/react-router/dist/production/lib/router/utils.js?raw";
import { beforeAll, describe, expect, it } from "vitest";
import { keepRouteTables } from "../patches/react-router-route-tables";
import { get, makeSignedInUser, makeUser } from "./helpers";

// The build makes React Router's server keep its route tables across requests (patches/react-router-route-tables.ts,
// decision 320). Each page must still get its own routes: the partial manifest a page hands the browser names the
// routes of the page and of every parent path, whatever page this isolate rendered before; and a path matched before
// gets its own params and loaders again.

const FILES = {
  "react-router/dist/production/lib/dom/ssr/server.js": serverRouterJs,
  "react-router/dist/production/lib/dom/server.js": staticRouterJs,
  "react-router/dist/production/lib/dom/ssr/fog-of-war.js": fogOfWarJs,
  "react-router/dist/production/lib/router/utils.js": routerUtilsJs,
};

/** The route ids of the partial manifest a server-rendered page hands the browser (its JSON: braces balanced outside strings). */
function manifestRouteIds(html: string): string[] {
  const marker = "window.__reactRouterManifest = ";
  const start = html.indexOf(marker) + marker.length;
  if (start < marker.length) throw new Error("no route manifest in the page");
  let depth = 0;
  let inString = false;
  let end = start;
  for (; end < html.length; end++) {
    const c = html[end];
    if (inString) {
      if (c === "\\") end++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) break;
  }
  return Object.keys((JSON.parse(html.slice(start, end + 1)) as { routes: Record<string, unknown> }).routes).sort();
}

let cookie: string;
let userId: string;

beforeAll(async () => {
  const fan = await makeSignedInUser({ name: "Route Tables Fan" });
  cookie = fan.cookie;
  userId = fan.id;
});

describe("React Router's route tables kept across requests", () => {
  it("changes each of the four files, and only those", () => {
    for (const [id, code] of Object.entries(FILES)) {
      const out = keepRouteTables(code, `/x/node_modules/${id}`);
      expect(out, id).not.toBeNull();
      expect(out, id).not.toBe(code);
    }
    expect(
      keepRouteTables(serverRouterJs, "/x/node_modules/react-router/dist/production/lib/dom/ssr/components.js"),
    ).toBeNull();
    expect(
      keepRouteTables(serverRouterJs, "/x/node_modules/react-router/dist/development/lib/dom/ssr/server.js"),
    ).toBeNull();
  });

  it("refuses a React Router whose code has changed instead of changing it blindly", () => {
    const changed = fogOfWarJs.replace("let matches = router.match(path);", "let found = router.match(path);");
    expect(() =>
      keepRouteTables(changed, "/x/node_modules/react-router/dist/production/lib/dom/ssr/fog-of-war.js"),
    ).toThrow(/fog-of-war\.js no longer contains exactly one "\\tpaths\.forEach\(\(path\) => \{"/);
    // The message names the line of the file that differs.
    const line = fogOfWarJs.slice(0, fogOfWarJs.indexOf("let matches = router.match(path);")).split("\n").length;
    expect(() =>
      keepRouteTables(changed, "/x/node_modules/react-router/dist/production/lib/dom/ssr/fog-of-war.js"),
    ).toThrow(new RegExp(`react-router 8\\.4\\.0 .*line ${line} is "\\\\t\\\\tlet found = router\\.match\\(path\\);"`));
    const renamed = serverRouterJs.replace(
      "function ServerRouter({ context, url, nonce }) {",
      "function ServerRouter({ context, url }) {",
    );
    expect(() =>
      keepRouteTables(renamed, "/x/node_modules/react-router/dist/production/lib/dom/ssr/server.js"),
    ).toThrow(/no longer contains exactly one/);
  });

  it("hands each page the routes of its own path and parent paths, page after page", async () => {
    const home = ["root", "routes/home", "routes/page-shell"];
    const expected: [string, string[]][] = [
      ["/shop", [...home, "routes/shop"]],
      [`/profile/${userId}/shop`, [...home, "routes/not-found", "routes/profile", "routes/profile-shop"]],
      ["/my-orders", [...home, "routes/my-orders"]],
      [`/profile/${userId}`, [...home, "routes/not-found", "routes/profile"]],
      ["/shop", [...home, "routes/shop"]],
    ];
    for (const [path, ids] of [...expected, ...expected]) {
      const res = await get(path, { cookie });
      expect(res.status, path).toBe(200);
      expect(manifestRouteIds(await res.text()), path).toEqual([...ids].sort());
    }
  });

  it("a path matched before gets its own params again: each profile shows its own host, page after page", async () => {
    const names = ["Route Tables Host Ada", "Route Tables Host Bo"];
    const hosts = await Promise.all(names.map(async (name) => ({ name, id: (await makeUser({ name })).id })));
    for (const [i, host] of [0, 1, 0, 1, 0].map((i) => [i, hosts[i]!] as const)) {
      const res = await get(`/profile/${host.id}`, { cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(host.name);
      expect(html).not.toContain(names[1 - i]!);
    }
  });
});
