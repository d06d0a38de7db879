import type { MembersPoint } from '@common/schemas/figures';
import { type FiguresPeriod, useMembersFigures } from '../api';
import { ChartFigure, FigureTable } from './chart-figure';
import { TimeChart } from './charts';
import { FigureStat } from './figure-stat';

const COLUMNS = [
  { label: 'From', cell: (point: MembersPoint) => point.start },
  { label: 'Total', cell: (point: MembersPoint) => point.total, numeric: true },
  { label: 'Paid', cell: (point: MembersPoint) => point.paid, numeric: true },
  { label: 'Free', cell: (point: MembersPoint) => point.free, numeric: true },
  { label: 'Sign-ups', cell: (point: MembersPoint) => point.signups, numeric: true },
  { label: 'Upgrades', cell: (point: MembersPoint) => point.upgrades, numeric: true },
  { label: 'Cancellations', cell: (point: MembersPoint) => point.cancellations, numeric: true },
];

/** Members over the period: where they ended, what happened, and the same for the period before. */
export function MembersFiguresCard({ period }: { period: FiguresPeriod }) {
  const { data, error } = useMembersFigures(period);
  if (error) return <FiguresError message={error.message} />;
  const now = data?.period;
  const before = data?.previous;
  const days = data?.points.map((point) => point.start) ?? [];
  return (
    <section aria-labelledby="members-figures-heading" className="mt-6">
      <h3 id="members-figures-heading" className="text-base font-semibold text-white">
        Members
      </h3>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <FigureStat label="Members" value={now?.total ?? null} before={before?.total} testId="figure-total" />
        <FigureStat label="Paid" value={now?.paid ?? null} before={before?.paid} testId="figure-paid" />
        <FigureStat label="Free" value={now?.free ?? null} before={before?.free} testId="figure-free" />
        <FigureStat
          label="Sign-ups"
          value={now?.signups ?? null}
          before={before?.signups}
          testId="figure-signups"
        />
        <FigureStat
          label="Upgrades"
          value={now?.upgrades ?? null}
          before={before?.upgrades}
          testId="figure-upgrades"
        />
        <FigureStat
          label="Cancellations"
          value={now?.cancellations ?? null}
          before={before?.cancellations}
          testId="figure-cancellations"
        />
      </dl>
      {data && (
        <ChartFigure
          title="Members at the end of each step"
          summary={`From ${data.from} to ${data.to}: ${now?.total} members at the end, ${now?.paid} paid.`}
          chart={
            <TimeChart
              days={days}
              series={[
                { label: 'Total', values: data.points.map((point) => point.total), color: '#fbbf24' },
                { label: 'Paid', values: data.points.map((point) => point.paid), color: '#34d399' },
                { label: 'Free', values: data.points.map((point) => point.free), color: '#7dd3fc' },
              ]}
            />
          }
          table={
            <FigureTable
              caption="Members by step"
              columns={COLUMNS}
              rows={data.points}
              rowKey={(point) => point.start}
            />
          }
        />
      )}
    </section>
  );
}

export function FiguresError({ message }: { message: string }) {
  return (
    <p
      role="alert"
      className="mt-6 rounded-xl border border-red-500/40 bg-red-500/10 p-3 text-sm text-red-200"
    >
      {message}
    </p>
  );
}
