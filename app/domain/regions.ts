// Regions of a country (ISO 3166-2 subdivisions) a fan may name beside their country, where prize-draw rules differ
// inside a country (docs/product.md#eligibility): every US state, and the subdivisions of a few countries whose
// rules differ by region. Pure data and lookups.

import { countryByCode, isCountryCode } from "./currency";

export interface Region {
  /** ISO 3166-2 code, e.g. "US-NY". */
  code: string;
  name: string;
}

const US_REGIONS: readonly Region[] = [
  ["AL", "Alabama"],
  ["AK", "Alaska"],
  ["AZ", "Arizona"],
  ["AR", "Arkansas"],
  ["CA", "California"],
  ["CO", "Colorado"],
  ["CT", "Connecticut"],
  ["DE", "Delaware"],
  ["DC", "District of Columbia"],
  ["FL", "Florida"],
  ["GA", "Georgia"],
  ["HI", "Hawaii"],
  ["ID", "Idaho"],
  ["IL", "Illinois"],
  ["IN", "Indiana"],
  ["IA", "Iowa"],
  ["KS", "Kansas"],
  ["KY", "Kentucky"],
  ["LA", "Louisiana"],
  ["ME", "Maine"],
  ["MD", "Maryland"],
  ["MA", "Massachusetts"],
  ["MI", "Michigan"],
  ["MN", "Minnesota"],
  ["MS", "Mississippi"],
  ["MO", "Missouri"],
  ["MT", "Montana"],
  ["NE", "Nebraska"],
  ["NV", "Nevada"],
  ["NH", "New Hampshire"],
  ["NJ", "New Jersey"],
  ["NM", "New Mexico"],
  ["NY", "New York"],
  ["NC", "North Carolina"],
  ["ND", "North Dakota"],
  ["OH", "Ohio"],
  ["OK", "Oklahoma"],
  ["OR", "Oregon"],
  ["PA", "Pennsylvania"],
  ["RI", "Rhode Island"],
  ["SC", "South Carolina"],
  ["SD", "South Dakota"],
  ["TN", "Tennessee"],
  ["TX", "Texas"],
  ["UT", "Utah"],
  ["VT", "Vermont"],
  ["VA", "Virginia"],
  ["WA", "Washington"],
  ["WV", "West Virginia"],
  ["WI", "Wisconsin"],
  ["WY", "Wyoming"],
  ["AS", "American Samoa"],
  ["GU", "Guam"],
  ["MP", "Northern Mariana Islands"],
  ["PR", "Puerto Rico"],
  ["VI", "U.S. Virgin Islands"],
].map(([code, name]) => ({ code: `US-${code}`, name: name! }));

const MY_REGIONS: readonly Region[] = [
  ["01", "Johor"],
  ["02", "Kedah"],
  ["03", "Kelantan"],
  ["04", "Melaka"],
  ["05", "Negeri Sembilan"],
  ["06", "Pahang"],
  ["07", "Pulau Pinang"],
  ["08", "Perak"],
  ["09", "Perlis"],
  ["10", "Selangor"],
  ["11", "Terengganu"],
  ["12", "Sabah"],
  ["13", "Sarawak"],
  ["14", "Wilayah Persekutuan Kuala Lumpur"],
  ["15", "Wilayah Persekutuan Labuan"],
  ["16", "Wilayah Persekutuan Putrajaya"],
].map(([code, name]) => ({ code: `MY-${code}`, name: name! }));

const GB_REGIONS: readonly Region[] = [
  { code: "GB-ENG", name: "England" },
  { code: "GB-NIR", name: "Northern Ireland" },
  { code: "GB-SCT", name: "Scotland" },
  { code: "GB-WLS", name: "Wales" },
];

const CA_REGIONS: readonly Region[] = [
  ["AB", "Alberta"],
  ["BC", "British Columbia"],
  ["MB", "Manitoba"],
  ["NB", "New Brunswick"],
  ["NL", "Newfoundland and Labrador"],
  ["NS", "Nova Scotia"],
  ["NT", "Northwest Territories"],
  ["NU", "Nunavut"],
  ["ON", "Ontario"],
  ["PE", "Prince Edward Island"],
  ["QC", "Quebec"],
  ["SK", "Saskatchewan"],
  ["YT", "Yukon"],
].map(([code, name]) => ({ code: `CA-${code}`, name: name! }));

const AU_REGIONS: readonly Region[] = [
  ["ACT", "Australian Capital Territory"],
  ["NSW", "New South Wales"],
  ["NT", "Northern Territory"],
  ["QLD", "Queensland"],
  ["SA", "South Australia"],
  ["TAS", "Tasmania"],
  ["VIC", "Victoria"],
  ["WA", "Western Australia"],
].map(([code, name]) => ({ code: `AU-${code}`, name: name! }));

/** The regions a fan of each listed country can choose from; other countries have no region list (optional). */
export const REGIONS_BY_COUNTRY: Readonly<Record<string, readonly Region[]>> = {
  US: US_REGIONS,
  MY: MY_REGIONS,
  GB: GB_REGIONS,
  CA: CA_REGIONS,
  AU: AU_REGIONS,
};

const REGION_BY_CODE: ReadonlyMap<string, Region> = new Map(
  Object.values(REGIONS_BY_COUNTRY).flatMap((regions) => regions.map((r) => [r.code, r] as const)),
);

/** The regions of a country (empty when the country has no list). */
export function regionsOf(countryCode: string): readonly Region[] {
  return REGIONS_BY_COUNTRY[countryCode] ?? [];
}

export function isRegionCode(code: unknown): code is string {
  return typeof code === "string" && REGION_BY_CODE.has(code);
}

/** Whether a region code belongs to the country (US-NY to US). */
export function isRegionOf(regionCode: string, countryCode: string): boolean {
  return isRegionCode(regionCode) && regionCode.startsWith(`${countryCode}-`);
}

/** The country of a region code ("US" of "US-NY"). */
export function countryOfRegion(regionCode: string): string {
  return regionCode.split("-")[0] ?? "";
}

/** A place's name for people: "New York, United States" for a region, the country's name for a country. */
export function placeName(code: string): string {
  const region = REGION_BY_CODE.get(code);
  if (region) return `${region.name}, ${countryByCode(countryOfRegion(code)).name}`;
  return isCountryCode(code) ? countryByCode(code).name : code;
}

/** A country (ISO 3166-1 alpha-2) or region (ISO 3166-2) code this app knows. */
export function isPlaceCode(code: unknown): code is string {
  return isCountryCode(code) || isRegionCode(code);
}
