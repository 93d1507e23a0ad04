import { createMiddleware } from "hono/factory";
import { getDb } from "~/db/client.server";
import { getSessionUser, type SessionUser } from "~/lib/session.server";

/** The bindings and variables of a Hono app whose routes read the signed-in user. */
export type UserApi = { Bindings: Env; Variables: { user: SessionUser | null } };

/** The one way a Hono route gets the user: resolved once per request from the session cookie (null for a visitor). */
export const withUser = createMiddleware<UserApi>(async (c, next) => {
  c.set("user", await getSessionUser(getDb(c.env), c.req.raw));
  await next();
});
