import type { RouterContextProvider } from "react-router";
import { envContext } from "../context";
import Home, { loader as homeLoader, meta } from "./home";

export { meta };

/** The home page's loader plus one D1 query: what a single D1 call adds. */
export async function loader({ context }: { context: RouterContextProvider }) {
  const row = await context.get(envContext).DB.prepare("select 1 as one").first<{ one: number }>();
  return { ...homeLoader(), one: row?.one ?? 0 };
}

export default Home;
