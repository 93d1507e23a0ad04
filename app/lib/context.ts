import { createContext, type RouterContextProvider } from "react-router";

/** The Worker's bindings and execution context, handed to every loader and action. */
export type CloudflareContext = { env: Env; ctx: ExecutionContext };

export const cloudflareContext = createContext<CloudflareContext>();

export function getEnv(context: Readonly<RouterContextProvider>): Env {
  return context.get(cloudflareContext).env;
}

export function getCtx(context: Readonly<RouterContextProvider>): ExecutionContext {
  return context.get(cloudflareContext).ctx;
}
