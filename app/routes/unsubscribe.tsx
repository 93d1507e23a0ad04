// /unsubscribe?u=…&c=…&s=…: stop one category of mail (sales, winner, pool updates) for one account, from the link
// in the mail (a page with a button) or by the mail provider's one-click POST (RFC 8058, no session, no Origin: the
// signed URL is the proof). A tampered URL is refused and changes nothing (docs/product.md#notifications).
import { data, Form } from "react-router";
import { Button, Card, Page, pageMeta } from "~/components/page";
import { CATEGORY_LABELS } from "~/domain/notifications";
import { getEnv } from "~/lib/context";
import { unsubscribe, verifyUnsubscribe } from "~/lib/unsubscribe.server";
import type { Route } from "./+types/unsubscribe";

export const meta: Route.MetaFunction = () => [...pageMeta("Unsubscribe"), { name: "robots", content: "noindex" }];

const INVALID = "This unsubscribe link is not valid. Change your e-mails in Settings > Notifications.";

function linkOf(request: Request, env: Env) {
  return verifyUnsubscribe(env, new URL(request.url).searchParams);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const link = linkOf(request, getEnv(context));
  if (!link) throw data(INVALID, { status: 400 });
  return { label: CATEGORY_LABELS[link.category] };
}

export async function action({ request, context }: Route.ActionArgs) {
  const env = getEnv(context);
  const link = linkOf(request, env);
  if (!link) return data({ done: false, message: INVALID }, { status: 400 });
  await unsubscribe(env, link.userId, link.category);
  return { done: true, message: `You will get no more e-mails about ${CATEGORY_LABELS[link.category].toLowerCase()}.` };
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Page title="Unsubscribe" width="narrow">
      <Card>
        {actionData?.done ? (
          <p role="status" className="text-gray-900">
            {actionData.message} Your notifications inbox still lists them; turn them back on in Settings &gt;
            Notifications.
          </p>
        ) : (
          <Form method="post" className="space-y-4">
            <p className="text-gray-900">Stop e-mails and pushes about {loaderData.label.toLowerCase()}?</p>
            <Button type="submit">Unsubscribe</Button>
          </Form>
        )}
      </Card>
    </Page>
  );
}
