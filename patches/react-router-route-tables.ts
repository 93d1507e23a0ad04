import { applyExactReplacements, changeFilesPlugin, type Replacement } from "./exact-replacements";

// Patch of react-router 8.4.0, four files under dist/production/lib (patches/README.md, decision 320).

// React Router's server rendering rebuilds the app's route tables for every page it renders, although they depend
// only on the build: `ServerRouter` turns the manifest's 80 routes into route objects (createServerRoutes),
// `createStaticRouter` copies those into data routes with ids (convertRoutesToDataRoutes), and `<Scripts>` matches
// "/" and every parent path of the page against all route branches again to find the routes the browser's partial
// manifest must hold (getPartialManifest). Measured in workerd on a signed-in page, that is 0.3–0.6 ms of CPU per
// request (docs/decisions/320). The static handler also matches each request's path twice against its ranked
// branches (the server runtime's match, then the query's), trying each branch in turn until one fits.
//
// This plugin makes the three keep their result for the routes they were given, in a WeakMap keyed by the build's
// own route manifest (or by the route array built from it): the same objects, built once per isolate instead of once
// per request. The handler's matches are remembered per path (keyed by its branches, which it ranks once per
// isolate), and each caller gets copies of the match objects, since rendering replaces a match's route. (The route objects are reused only while every route module is the same one: the server runtime
// hands each request a new object listing the same modules.) Nothing mutates them afterwards on the server (a static router's routes are never patched or
// lazy-loaded; SPA mode, whose routes are lazy, is left uncached). Parent paths come from request URLs, so their
// remembered matches are capped and start over past 500 paths.
//
// Every replacement must match React Router's file exactly: a release that changes these lines fails the build here,
// so the change is looked at again instead of applied blindly.

/** [file (under react-router/dist/production/lib), [the file's code, its replacement][]]. */
const PATCHES: readonly (readonly [RegExp, string, readonly Replacement[]])[] = [
  [
    /react-router[\\/]dist[\\/]production[\\/]lib[\\/]dom[\\/]ssr[\\/]server\.js$/,
    "lib/dom/ssr/server.js",
    [
      [
        "function ServerRouter({ context, url, nonce }) {",
        [
          "const serverRoutesByManifest = new WeakMap();",
          // The server runtime hands each request a new object of the same route modules.
          "function sameRouteModules(built, routeModules) {",
          "\tlet count = 0;",
          "\tfor (let id in routeModules) {",
          "\t\tif (built.routeModules[id] !== routeModules[id]) return false;",
          "\t\tcount++;",
          "\t}",
          "\treturn count === built.count;",
          "}",
          "function ServerRouter({ context, url, nonce }) {",
        ].join("\n"),
      ],
      [
        "\tlet routes = createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);",
        [
          "\tlet built = context.isSpaMode ? void 0 : serverRoutesByManifest.get(manifest.routes);",
          "\tlet routes = built && sameRouteModules(built, routeModules) ? built.routes : createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);",
          "\tif (!context.isSpaMode && built?.routes !== routes) serverRoutesByManifest.set(manifest.routes, { routeModules, routes, count: Object.keys(routeModules).length });",
        ].join("\n"),
      ],
    ],
  ],
  [
    /react-router[\\/]dist[\\/]production[\\/]lib[\\/]dom[\\/]server\.js$/,
    "lib/dom/server.js",
    [
      [
        "function createStaticRouter(routes, context, opts = {}) {",
        "const dataRoutesByRoutes = new WeakMap();\nfunction createStaticRouter(routes, context, opts = {}) {",
      ],
      [
        "\tlet manifest = {};\n\tlet dataRoutes = convertRoutesToDataRoutes(routes, void 0, void 0, manifest);",
        [
          "\tlet converted = dataRoutesByRoutes.get(routes);",
          "\tif (!converted) {",
          "\t\tlet routeManifest = {};",
          "\t\tconverted = { manifest: routeManifest, dataRoutes: convertRoutesToDataRoutes(routes, void 0, void 0, routeManifest) };",
          "\t\tdataRoutesByRoutes.set(routes, converted);",
          "\t}",
          "\tlet manifest = converted.manifest;",
          "\tlet dataRoutes = converted.dataRoutes;",
        ].join("\n"),
      ],
    ],
  ],
  [
    /react-router[\\/]dist[\\/]production[\\/]lib[\\/]dom[\\/]ssr[\\/]fog-of-war\.js$/,
    "lib/dom/ssr/fog-of-war.js",
    [
      [
        "function getPartialManifest({ sri, ...manifest }, router) {",
        "const routeIdsByPathByManifest = new WeakMap();\nfunction getPartialManifest({ sri, ...manifest }, router) {",
      ],
      [
        "\tpaths.forEach((path) => {\n\t\tlet matches = router.match(path);\n\t\tif (matches) matches.forEach((m) => routeIds.add(m.route.id));\n\t});",
        [
          "\tlet routeIdsByPath = routeIdsByPathByManifest.get(manifest.routes);",
          "\tif (!routeIdsByPath) routeIdsByPathByManifest.set(manifest.routes, routeIdsByPath = new Map());",
          "\tpaths.forEach((path) => {",
          "\t\tlet ids = routeIdsByPath.get(path);",
          "\t\tif (!ids) {",
          "\t\t\tlet matches = router.match(path);",
          "\t\t\tids = matches ? matches.map((m) => m.route.id) : [];",
          "\t\t\tif (routeIdsByPath.size >= 500) routeIdsByPath.clear();",
          "\t\t\trouteIdsByPath.set(path, ids);",
          "\t\t}",
          "\t\tids.forEach((id) => routeIds.add(id));",
          "\t});",
        ].join("\n"),
      ],
    ],
  ],
  [
    /react-router[\\/]dist[\\/]production[\\/]lib[\\/]router[\\/]utils\.js$/,
    "lib/router/utils.js",
    [
      [
        "\tlet matches = null;\n\tlet decoded = decodePath(pathname);\n\tfor (let i = 0; matches == null && i < branches.length; ++i) matches = matchRouteBranch(branches[i], decoded, allowPartial);\n\treturn matches;\n}",
        [
          "\tlet matches = null;",
          "\tlet decoded = decodePath(pathname);",
          // A static handler's own branches (built once per isolate): what a path matched is remembered per path.
          "\tlet known = precomputedBranches && matchesByBranches.get(precomputedBranches);",
          "\tif (precomputedBranches && !known) matchesByBranches.set(precomputedBranches, known = new Map());",
          '\tlet key = (allowPartial ? "partial:" : "exact:") + decoded;',
          "\tlet found = known?.get(key);",
          "\tif (found !== void 0) return found && copyMatches(found);",
          "\tfor (let i = 0; matches == null && i < branches.length; ++i) matches = matchRouteBranch(branches[i], decoded, allowPartial);",
          "\tif (known) {",
          "\t\tif (known.size >= 500) known.clear();",
          "\t\tknown.set(key, matches && copyMatches(matches));",
          "\t}",
          "\treturn matches;",
          "}",
          "const matchesByBranches = new WeakMap();",
          // Callers get objects of their own (rendering sets a match's route); a path's matches share one params object.
          "function copyMatches(matches) {",
          "\tlet params = { ...matches[0]?.params };",
          "\treturn matches.map((match) => ({ ...match, params }));",
          "}",
        ].join("\n"),
      ],
    ],
  ],
];

/** The file's code with its route tables kept across requests; throws when React Router's code has changed. */
export function keepRouteTables(code: string, id: string): string | null {
  const patch = PATCHES.find(([file]) => file.test(id));
  if (!patch) return null;
  const [, name, replacements] = patch;
  return applyExactReplacements(
    code,
    replacements,
    `react-router 8.4.0 dist/production/${name}`,
    "React Router changed: check patches/react-router-route-tables.ts against the new file (or remove it), see patches/README.md.",
  );
}

// Only the server renders pages; the browser's copy of these files is left as it is.
export const reactRouterRouteTables = () =>
  changeFilesPlugin(
    "tribe:react-router-route-tables",
    PATCHES.map(([file]) => file),
    (code, id) => keepRouteTables(code, id)!,
  );
