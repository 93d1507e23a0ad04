import { PROVIDER_ATTEMPTS, type HeldEvent, type Model } from "./model";
import { deliver } from "./world";

/** Delivers one event; a refused one goes back to the queue until the provider's attempts are used up. */
export async function deliverHeld(m: Model, held: HeldEvent): Promise<string> {
  const status = await deliver(held.event);
  held.attempts += 1;
  if (held.event.type === "checkout.session.completed" && status === 200) {
    const c = m.checkouts.find((x) => x.id === held.checkoutId);
    if (c) c.delivered = true;
  }
  if (status !== 200 && held.attempts < PROVIDER_ATTEMPTS) m.held.push(held);
  return `${held.label} ${held.event.type} answered ${status}`;
}
