// What the official rules and the public "Responsible play" page tell people (issue 29 item 8,
// docs/product.md#responsible-play, decision 560): the support services they link to, and the page's address.

/** The public page about playing safely (the fan's own limits are at RESPONSIBLE_PLAY_PATH in settings). */
export const RESPONSIBLE_PLAY_PAGE_PATH = "/responsible-play";

export interface SupportService {
  name: string;
  /** Where it helps. */
  region: "UK" | "US";
  href: string;
  /** What it offers, in one line. */
  offer: string;
}

/** Independent help with gambling harms: linked (never loaded) from the rules and the Responsible play page. */
export const SUPPORT_SERVICES: readonly SupportService[] = [
  {
    name: "GamCare",
    region: "UK",
    href: "https://www.gamcare.org.uk/",
    offer: "free, confidential support, including the National Gambling Helpline on 0808 8020 133, open 24 hours",
  },
  {
    name: "BeGambleAware",
    region: "UK",
    href: "https://www.begambleaware.org/",
    offer: "free advice, tools and treatment for anyone worried about their own or someone else's gambling",
  },
  {
    name: "National Council on Problem Gambling",
    region: "US",
    href: "https://www.ncpgambling.org/",
    offer: "the 1-800-GAMBLER helpline (call or text), chat and local help in every state",
  },
];
