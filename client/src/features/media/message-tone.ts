/** Said when the media folder is not set yet (the Background Manager sets it). */
export const NO_BASE_PATH = 'Please set a base path in Background Manager first.';

/** An error's own words, or `fallback` when it has none. */
export const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

/** Refusals of what the person asked for: shown red like errors, although the word is not in them. */
const REFUSALS = [
  'No files to upload.',
  'No files selected.',
  'Please set a base path',
  'Files too large',
  'Invalid file types',
];

export type MessageTone = 'error' | 'success';

/** Messages mentioning an error are red, others green; refusals count as errors. */
export function messageTone(text: string): MessageTone {
  return /error/i.test(text) || REFUSALS.some((refusal) => text.startsWith(refusal)) ? 'error' : 'success';
}
