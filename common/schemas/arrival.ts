import { z } from 'zod';
import type { SignupSource } from './figures';

const text = z.string().trim().max(300).optional().catch(undefined);

/**
 * Where the visit that signs up came from, as the beacon saw it on landing (`client/public/beacon.js`):
 * the first referrer from another site, `?ref=` and the `utm_` fields. Sent with the sign-up;
 * anything malformed is dropped, never a refusal of the sign-up.
 */
export const arrivalSchema = z
  .object({
    referrer: text,
    ref: text,
    utm_source: text,
    utm_medium: text,
    utm_campaign: text,
  })
  .optional()
  .catch(undefined);
export type Arrival = z.output<typeof arrivalSchema>;

/** A sources' name: lower case, letters, digits and a few marks, at most 60 characters. */
const tidy = (value: string | undefined) =>
  value
    ?.toLowerCase()
    .replace(/[^a-z0-9_\-:/ ]/g, '')
    .trim()
    .slice(0, 60) || undefined;

function hostOf(referrer: string | undefined): string | undefined {
  if (!referrer) return undefined;
  try {
    const url = new URL(referrer);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? url.hostname.replace(/^www\./, '')
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What is kept of an arrival: the referrer's host alone (never its path or query, which may
 * name a person), the fields tidied, and the source the figures group by: `ref`, else
 * `utm_source`, else the referrer's host, else `direct`.
 */
export function signupSourceOf(arrival: Arrival): SignupSource {
  const referrer = hostOf(arrival?.referrer);
  const ref = tidy(arrival?.ref);
  const utmSource = tidy(arrival?.utm_source);
  const kept = {
    referrer,
    ref,
    utmSource,
    utmMedium: tidy(arrival?.utm_medium),
    utmCampaign: tidy(arrival?.utm_campaign),
  };
  const fields = Object.fromEntries(Object.entries(kept).filter(([, value]) => value !== undefined));
  return { source: ref ?? utmSource ?? referrer ?? 'direct', ...fields };
}
