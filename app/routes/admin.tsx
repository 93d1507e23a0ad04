import { Table } from "~/components/cards";
import { Badge, DateText, Page, pageMeta, Section, Stat } from "~/components/page";
import { getDb } from "~/db/client.server";
import { listRecentUsers, platformCounts } from "~/db/queries/admin.server";
import { formatCents } from "~/domain/money";
import { requireAdmin } from "~/lib/auth.server";
import { getEnv } from "~/lib/context";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = () => pageMeta("Platform Owner");

export async function loader({ request, context }: Route.LoaderArgs) {
  requireAdmin(context, request);
  const db = getDb(getEnv(context));
  const [counts, users] = await Promise.all([platformCounts(db), listRecentUsers(db, 20)]);
  return { counts, users };
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  const { counts, users } = loaderData;
  return (
    <Page title="Admin Dashboard" subtitle="Platform Owner" back={{ to: "/", label: "Back to Home" }}>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Users" value={counts.users} />
        <Stat label="Products" value={counts.products} />
        <Stat label="Orders" value={counts.orders} />
        <Stat label="Games" value={counts.games} />
      </div>
      <Section title="Newest users">
        <Table head={["Name", "E-mail", "Role", "Status", "Followers", "Revenue", "Joined"]}>
          {users.map((u) => (
            <tr key={u.id}>
              <td className="px-4 py-2 font-medium text-gray-900">{u.creatorName ?? "—"}</td>
              <td className="px-4 py-2">{u.email}</td>
              <td className="px-4 py-2">{u.role === "admin" ? <Badge tone="brand">Admin</Badge> : "User"}</td>
              <td className="px-4 py-2 capitalize">{u.status ?? "—"}</td>
              <td className="px-4 py-2">{u.followersCount ?? 0}</td>
              <td className="px-4 py-2 whitespace-nowrap">{formatCents(u.totalRevenueCents ?? 0, "USD")}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                <DateText value={u.createdAt} />
              </td>
            </tr>
          ))}
        </Table>
      </Section>
    </Page>
  );
}
