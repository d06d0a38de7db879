import { useState } from 'react';
import { CoursesCard } from './course-figures';
import { MembersFiguresCard } from './members-figures';
import { MoneyFiguresCard } from './money-figures';
import { PeriodPicker, presetPeriod } from './period-picker';
import { SourcesCard, VisitsCard } from './traffic-figures';

/**
 * The owner's figures on the Dashboard, over the period chosen (docs/figures.md): members,
 * money, where members come from, visits and courses. Its own chunk with uPlot, loaded only
 * in the console.
 */
export function FiguresSection() {
  const [period, setPeriod] = useState(() => presetPeriod(30, 'day'));
  return (
    <section aria-labelledby="figures-heading" className="mt-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="figures-heading" className="text-xl font-semibold text-white">
          Figures
        </h2>
        <PeriodPicker period={period} onChange={setPeriod} />
      </div>
      <p className="mt-1 text-xs text-stone-400">
        Whole days in UTC; each figure is compared with the period just before.
      </p>
      <MembersFiguresCard period={period} />
      <MoneyFiguresCard period={period} />
      <SourcesCard period={period} />
      <VisitsCard period={period} />
      <CoursesCard />
    </section>
  );
}
