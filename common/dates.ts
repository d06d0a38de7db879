/**
 * The site's one way of writing dates, for the web client, the server-filled pages and the mails
 * alike: "5 December 2026". A day is read in UTC, as the server keeps it (a section that opens on
 * 5 December opens at midnight UTC), so that every page and mail names the same day.
 */
const DAY = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A moment's day and time, in the reader's own time zone; joined by hand, as ICU versions word it differently. */
const LOCAL_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** An ISO string, a `YYYY-MM-DD` day or a Date as "5 December 2026". */
export function formatDay(value: string | number | Date): string {
  return DAY.format(toDate(value));
}

/** When something happened, to the minute: "5 December 2026, 14:03". */
export function formatMoment(value: string | number | Date): string {
  const date = toDate(value);
  return `${LOCAL_DAY.format(date)}, ${TIME.format(date)}`;
}

function toDate(value: string | number | Date): Date {
  // A bare day is midnight UTC, not the reader's midnight (which `new Date('2026-12-05')` also gives, but say so).
  return value instanceof Date
    ? value
    : new Date(
        typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value,
      );
}
