import type { ActivityEntry } from '@common/schemas/activity';
import { csvHeader, csvRow } from '../../lib/csv';
import { kindLabel } from './activity.service';

const HEADER = ['Time (UTC)', 'Person', 'Address', 'Kind', 'Summary', 'Before', 'After'];

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** The entries as CSV, one row at a time; before/after as JSON text (already redacted). */
export function* activityCsv(entries: ActivityEntry[]): Generator<string> {
  yield csvHeader(HEADER);
  for (const e of entries) {
    yield csvRow([
      e.at,
      e.actorEmail,
      e.address,
      kindLabel(e.kind),
      e.summary,
      json(e.before),
      json(e.after),
    ]);
  }
}
