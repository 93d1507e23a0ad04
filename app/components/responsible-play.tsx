import { SUPPORT_SERVICES } from "~/domain/responsible-play";

// Statements the official rules and the Responsible play page share (docs/product.md#responsible-play), so both say
// the same thing in the same words, and the sections both are written in.

/** A link inside a rules section. */
export const rulesLinkClass = "font-medium text-brand-700 hover:underline";

/** One titled section of the official rules or the Responsible play page. */
export function RulesSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="mt-8 first:mt-0">
      <h2 className="text-lg font-semibold text-gray-900">{title}</h2>
      <div className="mt-2 space-y-2 text-gray-700">{children}</div>
    </section>
  );
}

/** The places where entries and paid guesses are not offered (the admin's list), or that there are none. */
export function ExcludedPlacesList({ places }: { places: readonly { code: string; name: string }[] }) {
  if (places.length === 0)
    return (
      <p data-testid="excluded-places">
        Entries and paid guesses are currently offered in every country and region where such draws are lawful.
      </p>
    );
  return (
    <p data-testid="excluded-places">
      Entries and paid guesses are not offered in:{" "}
      {places.map((place, i) => (
        <span key={place.code}>
          {i > 0 ? ", " : ""}
          {place.name} ({place.code})
        </span>
      ))}
      . An entry or paid guess from an account there is refused.
    </p>
  );
}

/** How postal entries work, with the operator's address (or where to ask for it). */
export function PostalEntry({ postalAddress, contactEmail }: { postalAddress: string | null; contactEmail: string }) {
  return (
    <p data-testid="postal-entry">
      <strong>By post.</strong> Send a postcard with your name, your account&apos;s e-mail address and the
      creator&apos;s name to{" "}
      {postalAddress ? (
        <span className="font-medium">{postalAddress}</span>
      ) : (
        <>
          the postal address we give on request at <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </>
      )}
      . Each postcard is one entry, with the same chance as a paid entry, in that creator&apos;s pool open on the day we
      receive it (a pool closes at its end or earlier when the target is reached). We record each card with its
      reference, the date we received it and who recorded it; a card counts once.
    </p>
  );
}

/** Independent help with gambling, as plain links (nothing is loaded from them). */
export function SupportServices() {
  return (
    <div data-testid="support-services">
      <p>If gambling, or a prize draw, stops being fun for you or someone close to you, free help is available:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {SUPPORT_SERVICES.map((service) => (
          <li key={service.name}>
            <a
              href={service.href}
              rel="noopener noreferrer"
              target="_blank"
              className="font-medium text-brand-700 hover:underline"
            >
              {service.name}
            </a>{" "}
            ({service.region}): {service.offer}.
          </li>
        ))}
      </ul>
    </div>
  );
}
