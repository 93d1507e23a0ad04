import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof getDb>;

/** The drizzle client over the Worker's D1 binding. Query functions take it as their first argument. */
export function getDb(env: Pick<Env, "DB">) {
  return drizzle(env.DB, { schema });
}
