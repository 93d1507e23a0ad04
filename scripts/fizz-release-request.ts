import { applyExactReplacements, changeFilePlugin } from "./exact-replacements";
import { REACT_EDGE_RENDERER } from "./fizz-text-chunks";

// React's edge renderer answers a page with a ReadableStream whose pull and cancel functions hold the render's
// `request`, and through their scope the page's whole element tree (`children`: for us the router context with every
// loader's data) and its options. In workerd that stream is a runtime (C++) object, and the JavaScript it holds counts
// as alive for every young-generation collection until a full collection finds the stream unreachable. So each page's
// render state, about 30 KB on a signed-in /shop, outlived its request, was promoted to the old generation at the
// next scavenge, and piled up until a full mark-compact. workerd turns V8's incremental marking off
// (jsg/setup.c++), so that collection stops the isolate for all of its marking: 30–55 ms here, once every few
// hundred pages (docs/decisions/360).
//
// This plugin changes React's renderToReadableStream (and resume, which shares the code) so the stream's functions
// reach the request through one holder that the renderer empties when it closes the stream, together with the
// scope's element tree and options. The bytes written are not touched (tests/fizz-release-request.test.ts renders the
// same pages with and without it). Every replacement must match the file exactly: a React release that changes these
// lines fails the build here.

/** Each [the file's code, its replacement, how often it occurs]. */
const REPLACEMENTS: readonly (readonly [string, string, number?])[] = [
  // The stream reaches the render through `source.request` only, and the render can empty it together with the
  // scope's element tree and options. (React writes this the same in renderToReadableStream and resume; prerender's
  // copy differs in its next line.)
  [
    `          var stream = new ReadableStream(
            {
              type: "bytes",
              pull: function (controller) {
                startFlowing(request, controller);
              },
              cancel: function (reason) {
                request.destination = null;
                abort(request, reason);
              }
            },
            { highWaterMark: 0 }
          );
          stream.allReady = allReady;`,
    `          var source = {
            type: "bytes",
            request: request,
            pull: function (controller) {
              null !== source.request && startFlowing(source.request, controller);
            },
            cancel: function (reason) {
              var live = source.request;
              null !== live && ((live.destination = null), abort(live, reason));
            }
          };
          request.releaseStream = function () {
            source.request = null;
            request = children = options = null;
          };
          var stream = new ReadableStream(source, { highWaterMark: 0 });
          stream.allReady = allReady;`,
    2,
  ],
  // When the last bytes are written and the stream is closed, the holder is emptied.
  [
    `          (request.status = 13),
          destination.close(),
          (request.destination = null))
        : completeWriting(destination);`,
    `          (request.status = 13),
          destination.close(),
          (request.destination = null),
          "function" === typeof request.releaseStream &&
            (request.releaseStream(), (request.releaseStream = null)))
        : completeWriting(destination);`,
  ],
];

/** The edge renderer's source with renderToReadableStream letting go of its render at the end; throws when React changed. */
export function releaseFizzRequest(code: string): string {
  return applyExactReplacements(
    code,
    REPLACEMENTS,
    "scripts/fizz-release-request.ts: react-dom-server.edge.production.js",
    "React's renderer changed: check the replacements against the new file (or remove the plugin).",
  );
}

export const fizzReleaseRequest = () => changeFilePlugin("tribe:fizz-release-request", REACT_EDGE_RENDERER, releaseFizzRequest);
