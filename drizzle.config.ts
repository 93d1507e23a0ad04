import { defineConfig } from "drizzle-kit";

// `npm run db:generate` (drizzle-kit generate) writes SQL migrations for D1 from the schema module.
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema.ts",
  out: "./migrations",
});
