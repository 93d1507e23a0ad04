import { requireUser } from "~/lib/guards.server";
import { getEnv } from "~/lib/context";
import { exportAccount } from "~/lib/settings.server";
import type { Route } from "./+types/settings-export";

// Settings > Account > Your data: every record of the signed-in account, as JSON or a ZIP of CSV files.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "zip") {
    return new Response("Please choose the JSON or ZIP format", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const file = await exportAccount(getEnv(context), user.id, format);
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
