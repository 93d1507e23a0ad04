import { createRequestHandler, RouterContextProvider } from "react-router";
import { envContext } from "../app/context";

// As in the app's workers/app.ts: the built routes and handler are made once per isolate, not on every request.
let handler: ReturnType<typeof createRequestHandler> | undefined;

export default {
  async fetch(request, env) {
    handler ??= createRequestHandler(await import("virtual:react-router/server-build"), import.meta.env.MODE);
    const context = new RouterContextProvider();
    context.set(envContext, env);
    return handler(request, context);
  },
} satisfies ExportedHandler<{ DB: D1Database }>;
