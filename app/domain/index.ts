// Pure domain rules: no I/O, no Cloudflare, database, React or React Router imports, so every function runs on the
// server and in the browser. Money is integer minor units with an explicit currency.
export * from "./money";
export * from "./currency";
export * from "./revenue";
export * from "./revenue-settings";
export * from "./countdown";
export * from "./rating";
export * from "./stock";
export * from "./orders";
export * from "./group-buy";
export * from "./draw";
export * from "./pool";
export * from "./catalog";
