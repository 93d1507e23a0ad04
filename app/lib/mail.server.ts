import type { Db } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";

export type Mail = { to: string; subject: string; text: string };

/**
 * The one way the app sends e-mail. In production it goes through Cloudflare's `send_email` binding (EMAIL);
 * without that binding (local runs, tests) the message lands in the dev outbox (/dev/outbox).
 */
export async function sendMail(env: Env, db: Db, mail: Mail): Promise<void> {
  if (env.EMAIL) {
    const { EmailMessage } = await import("cloudflare:email");
    const raw = [
      `From: ${env.MAIL_FROM}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      `Message-ID: <${crypto.randomUUID()}@${env.MAIL_FROM.split("@")[1] ?? "localhost"}>`,
      `Date: ${new Date().toUTCString()}`,
      "MIME-Version: 1.0",
      'Content-Type: text/plain; charset="utf-8"',
      "",
      mail.text,
    ].join("\r\n");
    await env.EMAIL.send(new EmailMessage(env.MAIL_FROM, mail.to, raw));
    return;
  }
  await db.insert(mailOutbox).values({
    id: crypto.randomUUID(),
    toAddress: mail.to,
    subject: mail.subject,
    textBody: mail.text,
    createdAt: new Date(),
  });
}
