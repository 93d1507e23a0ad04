import { defineConfig } from "drizzle-kit";

// `npm run db:generate` (drizzle-kit generate) writes SQL migrations for D1 from the schema modules (app/db/schema/, one per aggregate, behind index.ts).
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema/index.ts",
  out: "./migrations",
});
