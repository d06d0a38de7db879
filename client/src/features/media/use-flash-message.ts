import { useCallback, useEffect, useRef, useState } from 'react';

/** SPEC section 8: messages clear themselves after 2 to 7 seconds, 3 unless said otherwise. */
const DEFAULT_SECONDS = 3;
const MIN_SECONDS = 2;
const MAX_SECONDS = 7;

/** Refusals of what the person asked for: shown red like errors, although the word is not in them. */
const REFUSALS = [
  'No files to upload.',
  'No files selected.',
  'Please set a base path',
  'Files too large',
  'Invalid file types',
];

export type MessageTone = 'error' | 'success';

/** Messages mentioning an error are red, others green (SPEC section 8); refusals count as errors. */
export function messageTone(text: string): MessageTone {
  return /error/i.test(text) || REFUSALS.some((refusal) => text.startsWith(refusal)) ? 'error' : 'success';
}

export function useFlashMessage() {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flash = useCallback((text: string, seconds = DEFAULT_SECONDS) => {
    clearTimeout(timer.current);
    setMessage(text);
    const shown = Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, seconds));
    timer.current = setTimeout(() => setMessage(null), shown * 1000);
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);
  return { message, flash };
}
