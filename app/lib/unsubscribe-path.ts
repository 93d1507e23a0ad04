/** The one-click unsubscribe page (signed per account and category; exempt from the origin check). */
export const UNSUBSCRIBE_PATH = "/unsubscribe";
