import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the page being rendered (entry.server.tsx provides it). React Router's own
 * inline scripts get it through `<ServerRouter nonce>`; an inline script of ours (speculation rules) reads it here.
 * Empty in the browser: browsers hide nonces from the DOM.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
