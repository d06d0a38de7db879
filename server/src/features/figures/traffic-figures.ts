import type { SourceFigures, VisitFigures } from '@common/schemas/figures';
import { counterText, type FigureDayDoc } from './figure-days.repository';
import { addDays } from './periods';

/** Sign-ups and upgrades per source over the days given (`signups@<source>`, `upgrades@<source>`). */
export function sourceFigures(days: FigureDayDoc[]): SourceFigures[] {
  const bySource = new Map<string, SourceFigures>();
  for (const { counts } of days) {
    for (const [name, amount] of Object.entries(counts)) {
      const [what, source] = name.split('@');
      if (!source || (what !== 'signups' && what !== 'upgrades')) continue;
      const row = bySource.get(source) ?? { source: counterText(source), signups: 0, upgrades: 0 };
      row[what] += amount;
      bySource.set(source, row);
    }
  }
  return [...bySource.values()].sort(
    (a, b) => b.signups - a.signups || b.upgrades - a.upgrades || a.source.localeCompare(b.source),
  );
}

/** Page views and visitors per day (every day of the period) and per page (most viewed first). */
export function visitFigures(days: FigureDayDoc[], from: string, to: string): VisitFigures {
  const byDay = new Map(days.map((doc) => [doc._id, doc.counts]));
  const pages = new Map<string, { page: string; views: number; visitors: number }>();
  const perDay: VisitFigures['days'] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const totals = { day, views: 0, visitors: 0 };
    for (const [name, amount] of Object.entries(byDay.get(day) ?? {})) {
      const colon = name.indexOf(':');
      const what = name.slice(0, colon);
      if (what !== 'views' && what !== 'visitors') continue;
      const page = name.slice(colon + 1);
      const row = pages.get(page) ?? { page, views: 0, visitors: 0 };
      row[what] += amount;
      totals[what] += amount;
      pages.set(page, row);
    }
    perDay.push(totals);
  }
  return { days: perDay, pages: [...pages.values()].sort((a, b) => b.views - a.views) };
}
