import { applyExactReplacements, changeFilesPlugin, type Replacement } from "./exact-replacements";

// Patch of react-dom 19.3.1, cjs/react-dom-server.edge.production.js (patches/README.md, decision 250).
//
// React's server renderer for edge runtimes (react-dom/server, the "workerd" export: react-dom-server.edge) turns
// every piece of a page it writes (an attribute's value, a text, a tag) into bytes on its own:
// `textEncoder.encode(piece)`, then copies the bytes into a 4 KB buffer. A signed-in /shop page is about 1,800 such
// pieces, and in workerd each encode() is a call into the runtime with an ArrayBuffer of its own for the garbage
// collector.
//
// This patch keeps the pieces as JavaScript strings, joins them, and encodes the joined text once 4,096 UTF-16 units
// of it have built up, then hands those bytes to React's own writeChunk (kept whole, renamed writeBytesChunk), so
// React's 4 KB buffer, its streaming and its detached-buffer check are unchanged. React's byte counts (a segment's
// size, which decides when a large Suspense boundary is streamed on its own) stay byte counts: a string's UTF-8
// length is counted, not its UTF-16 length. Every replacement must match the file exactly: a React release that
// changes these functions fails the build here, naming the line, so the change is looked at again.

/** React's edge renderer, the file this patch changes. */
export const REACT_EDGE_RENDERER = /react-dom[\\/]cjs[\\/]react-dom-server\.edge\.production\.js$/;

/** React 19.3.1's writeChunk as the file has it: matched whole, so any change to it stops the build. */
const WRITE_CHUNK =
  'function writeChunk(destination, chunk) {\n  if (0 === chunk.byteLength) {\n    if (supportsArrayBufferDetached && chunk.buffer.detached)\n      throw Error(\n        "Cannot transport a detached buffer. This usually happens when trying to transport multiple buffer-spanning views on the same underyling buffer. Either reuse the exact same view by identity or copy the underlying buffer manually via `view.slice()`."\n      );\n  } else if (4096 < chunk.byteLength)\n    0 < writtenBytes &&\n      (destination.enqueue(new Uint8Array(currentView.buffer, 0, writtenBytes)),\n      (currentView = new Uint8Array(4096)),\n      (writtenBytes = 0)),\n      destination.enqueue(chunk);\n  else {\n    var allowableBytes = currentView.length - writtenBytes;\n    allowableBytes < chunk.byteLength &&\n      (0 === allowableBytes\n        ? destination.enqueue(currentView)\n        : (currentView.set(chunk.subarray(0, allowableBytes), writtenBytes),\n          destination.enqueue(currentView),\n          (chunk = chunk.subarray(allowableBytes))),\n      (currentView = new Uint8Array(4096)),\n      (writtenBytes = 0));\n    currentView.set(chunk, writtenBytes);\n    writtenBytes += chunk.byteLength;\n  }\n}\n';

/** Each [the file's code, its replacement]; every one must occur exactly once. */
const REPLACEMENTS: readonly Replacement[] = [
  // Pieces stay strings ...
  [
    "function stringToChunk(content) {\n  return textEncoder.encode(content);\n}",
    "function stringToChunk(content) {\n  return content;\n}",
  ],
  [
    "function stringToPrecomputedChunk(content) {\n  return textEncoder.encode(content);\n}",
    "function stringToPrecomputedChunk(content) {\n  return content;\n}",
  ],
  // ... still counted in UTF-8 bytes, as React counts its chunks ...
  [
    "function byteLengthOfChunk(chunk) {\n  return chunk.byteLength;\n}",
    [
      "function byteLengthOfChunk(chunk) {",
      '  if ("string" !== typeof chunk) return chunk.byteLength;',
      "  for (var bytes = chunk.length, i = 0; i < chunk.length; i++) {",
      "    var unit = chunk.charCodeAt(i);",
      "    if (127 < unit)",
      "      if (2047 >= unit) bytes += 1;",
      "      else if (55296 <= unit && 56319 >= unit && i + 1 < chunk.length && 56320 <= chunk.charCodeAt(i + 1) && 57343 >= chunk.charCodeAt(i + 1))",
      "        (bytes += 2), i++;",
      "      else bytes += 2;",
      "  }",
      "  return bytes;",
      "}",
    ].join("\n"),
  ],
  ["segmentByteSize += segment[i].byteLength;", "segmentByteSize += byteLengthOfChunk(segment[i]);"],
  // ... joined, and encoded into React's own writeChunk once 4 KB of text has built up, before any bytes that are
  // not text, and when a flush completes.
  [
    WRITE_CHUNK,
    [
      'var pendingText = "";',
      "function writePendingText(destination) {",
      "  var bytes = textEncoder.encode(pendingText);",
      '  pendingText = "";',
      "  null === currentView ? destination.enqueue(bytes) : writeBytesChunk(destination, bytes);",
      "}",
      "function writeChunk(destination, chunk) {",
      '  if ("string" === typeof chunk) {',
      "    pendingText += chunk;",
      "    4096 <= pendingText.length && writePendingText(destination);",
      "    return;",
      "  }",
      "  pendingText && writePendingText(destination);",
      "  writeBytesChunk(destination, chunk);",
      "}",
      WRITE_CHUNK.replace("function writeChunk(", "function writeBytesChunk("),
    ].join("\n"),
  ],
  [
    "function completeWriting(destination) {\n",
    "function completeWriting(destination) {\n  pendingText && writePendingText(destination);\n",
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
    "react-dom 19.3.1 cjs/react-dom-server.edge.production.js",
    "React's renderer changed: check patches/fizz-text-chunks.ts against the new file (or remove it), see patches/README.md.",
  );
}

export const fizzTextChunks = () =>
  changeFilesPlugin("tribe:fizz-text-chunks", [REACT_EDGE_RENDERER], (code) => joinFizzTextChunks(code));
