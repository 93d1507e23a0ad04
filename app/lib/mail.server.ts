import type { Db } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import { headerText } from "~/domain/notifications";

export type Mail = {
  to: string;
  subject: string;
  /** The plain-text part: every mail has one. */
  text: string;
  /** An HTML part beside the text (multipart/alternative). */
  html?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post); names and values are made single-line. */
  headers?: Record<string, string>;
};

/** The raw RFC 5322 message: the subject and every header on one line, a text part and, with HTML, an alternative. */
export function rawMessage(from: string, mail: Mail, now = new Date()): string {
  const domain = from.split("@")[1] ?? "localhost";
  const head = [
    `From: ${headerText(from)}`,
    `To: ${headerText(mail.to)}`,
    `Subject: ${headerText(mail.subject)}`,
    `Message-ID: <${crypto.randomUUID()}@${domain}>`,
    `Date: ${now.toUTCString()}`,
    ...Object.entries(mail.headers ?? {}).map(
      ([name, value]) => `${name.replace(/[^A-Za-z0-9-]/g, "")}: ${headerText(value, 900)}`,
    ),
    "MIME-Version: 1.0",
  ];
  if (!mail.html) return [...head, 'Content-Type: text/plain; charset="utf-8"', "", mail.text].join("\r\n");
  const boundary = `tribe-${crypto.randomUUID()}`;
  return [
    ...head,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    'Content-Type: text/plain; charset="utf-8"',
    "",
    mail.text,
    `--${boundary}`,
    'Content-Type: text/html; charset="utf-8"',
    "",
    mail.html,
    `--${boundary}--`,
    "",
  ].join("\r\n");
}

/**
 * The one way the app sends e-mail. In production it goes through Cloudflare's `send_email` binding (EMAIL);
 * without that binding (local runs, tests) the message lands in the dev outbox (/dev/outbox).
 */
export async function sendMail(env: Env, db: Db, mail: Mail): Promise<void> {
  if (env.EMAIL) {
    const { EmailMessage } = await import("cloudflare:email");
    await env.EMAIL.send(new EmailMessage(env.MAIL_FROM, mail.to, rawMessage(env.MAIL_FROM, mail)));
    return;
  }
  await db.insert(mailOutbox).values({
    id: crypto.randomUUID(),
    toAddress: mail.to,
    subject: headerText(mail.subject),
    textBody: mail.text,
    htmlBody: mail.html ?? null,
    headers: mail.headers ?? null,
    createdAt: new Date(),
  });
}
