import type { Route } from "./+types/home";
import { getEnv } from "~/lib/context";

export async function loader({ context }: Route.LoaderArgs) {
  const env = getEnv(context);
  const row = await env.DB.prepare("select 1 as one").first<{ one: number }>();
  return { one: row?.one ?? 0 };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <h1 className="text-3xl">Home {loaderData.one}</h1>;
}
