import { applyExactReplacements, changeFilePlugin } from "./exact-replacements";

// React's server renderer for edge runtimes (react-dom/server, the "workerd" export: react-dom-server.edge) turns
// every piece of a page it writes (an attribute's value, a text, a tag) into bytes on its own:
// `textEncoder.encode(piece)`, then copies the bytes into a 4 KB buffer. A signed-in /shop page is about 1,800 such
// pieces, and in workerd each encode() is a call into the runtime costing about 0.8 µs, with an ArrayBuffer of its
// own for the garbage collector: 1.4 ms of CPU per page for encoding text (measured, docs/decisions/250).
//
// This plugin changes four small functions of that file when it is bundled, so the renderer keeps the pieces as
// JavaScript strings, joins them, and encodes once per 4 KB of text: the same bytes in the same order, a few
// encode() calls per page instead of thousands. Every replacement must match the file exactly: a React release that
// changes these functions fails the build here, so the change is looked at again instead of applied blindly.

/** React's edge renderer, the file this plugin and scripts/fizz-release-request.ts change. */
export const REACT_EDGE_RENDERER = /react-dom[\\/]cjs[\\/]react-dom-server\.edge\.production\.js$/;

/** React 19's writeChunk as the file has it: whole, so any change to it stops the build. */
const WRITE_CHUNK =
  'function writeChunk(destination, chunk) {\n  if (0 === chunk.byteLength) {\n    if (supportsArrayBufferDetached && chunk.buffer.detached)\n      throw Error(\n        "Cannot transport a detached buffer. This usually happens when trying to transport multiple buffer-spanning views on the same underyling buffer. Either reuse the exact same view by identity or copy the underlying buffer manually via `view.slice()`."\n      );\n  } else if (4096 < chunk.byteLength)\n    0 < writtenBytes &&\n      (destination.enqueue(new Uint8Array(currentView.buffer, 0, writtenBytes)),\n      (currentView = new Uint8Array(4096)),\n      (writtenBytes = 0)),\n      destination.enqueue(chunk);\n  else {\n    var allowableBytes = currentView.length - writtenBytes;\n    allowableBytes < chunk.byteLength &&\n      (0 === allowableBytes\n        ? destination.enqueue(currentView)\n        : (currentView.set(chunk.subarray(0, allowableBytes), writtenBytes),\n          destination.enqueue(currentView),\n          (chunk = chunk.subarray(allowableBytes))),\n      (currentView = new Uint8Array(4096)),\n      (writtenBytes = 0));\n    currentView.set(chunk, writtenBytes);\n    writtenBytes += chunk.byteLength;\n  }\n}\n';

/** Each [the file's code, its replacement]; every one must occur exactly once. */
const REPLACEMENTS: readonly (readonly [string, string])[] = [
  // Pieces stay strings ...
  [
    "function stringToChunk(content) {\n  return textEncoder.encode(content);\n}",
    "function stringToChunk(content) {\n  return content;\n}",
  ],
  [
    "function stringToPrecomputedChunk(content) {\n  return textEncoder.encode(content);\n}",
    "function stringToPrecomputedChunk(content) {\n  return content;\n}",
  ],
  // ... measured in UTF-16 units (only used to decide when a large Suspense boundary is streamed on its own) ...
  [
    "function byteLengthOfChunk(chunk) {\n  return chunk.byteLength;\n}",
    "function byteLengthOfChunk(chunk) {\n  return chunk.length;\n}",
  ],
  ["segmentByteSize += segment[i].byteLength;", "segmentByteSize += segment[i].length;"],
  // ... and are joined, then encoded once per 4 KB, and whatever is left when a flush completes.
  [
    WRITE_CHUNK,
    `var pendingText = "";
function writeChunk(destination, chunk) {
  if ("string" === typeof chunk) {
    pendingText += chunk;
    4096 <= pendingText.length &&
      (destination.enqueue(textEncoder.encode(pendingText)), (pendingText = ""));
    return;
  }
  pendingText &&
    (destination.enqueue(textEncoder.encode(pendingText)), (pendingText = ""));
  0 < chunk.byteLength && destination.enqueue(chunk.slice());
}
`,
  ],
  [
    "function completeWriting(destination) {\n",
    'function completeWriting(destination) {\n  pendingText &&\n    (destination.enqueue(textEncoder.encode(pendingText)), (pendingText = ""));\n',
  ],
  // A flush starts from nothing, as React's own buffer does (text left by a flush that threw is dropped, not sent
  // with another page).
  [
    "function flushCompletedQueues(request, destination) {\n  currentView = new Uint8Array(4096);",
    'function flushCompletedQueues(request, destination) {\n  pendingText = "";\n  currentView = new Uint8Array(4096);',
  ],
];

/** The edge renderer's source with its text pieces joined before encoding; throws when React's code has changed. */
export function joinFizzTextChunks(code: string): string {
  return applyExactReplacements(
    code,
    REPLACEMENTS,
    "scripts/fizz-text-chunks.ts: react-dom-server.edge.production.js",
    "React's renderer changed: check the replacements against the new file (or remove the plugin).",
  );
}

export const fizzTextChunks = () => changeFilePlugin("tribe:fizz-text-chunks", REACT_EDGE_RENDERER, joinFizzTextChunks);
