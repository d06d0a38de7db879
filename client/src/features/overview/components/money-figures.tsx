import type { MoneyFigures } from '@common/schemas/figures';
import { type FiguresPeriod, useMoneyFigures } from '../api';
import { ChartFigure, FigureTable } from './chart-figure';
import { TimeChart } from './charts';
import { FigureStat } from './figure-stat';
import { FiguresError } from './members-figures';

const share = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);
const moneyIn = (currency: string) => (cents: number) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );

/** Money in each of the prices' currencies, when Stripe is connected (docs/figures.md, "Money"). */
export function MoneyFiguresCard({ period }: { period: FiguresPeriod }) {
  const { data, error } = useMoneyFigures(period);
  if (error) return <FiguresError message={error.message} />;
  if (!data) return null;
  if (!data.available)
    return (
      <p className="mt-6 text-sm text-stone-400">
        Money: Stripe is not connected, so there is no revenue to show (see Payments in the menu).
      </p>
    );
  return (
    <section aria-labelledby="money-figures-heading" className="mt-8">
      <h3 id="money-figures-heading" className="text-base font-semibold text-white">
        Money
      </h3>
      {data.currencies.length === 0 && (
        <p className="mt-2 text-sm text-stone-400">No price with an amount yet.</p>
      )}
      {data.currencies.map((money, index) => (
        <Currency
          key={money.currency}
          money={money}
          conversion={data.conversion}
          days={data.points.map((point) => point.start)}
          mrr={data.points.map((point) => point.mrr[index] ?? 0)}
          sales={data.points.map((point) => point.courseSales?.[index] ?? 0)}
        />
      ))}
    </section>
  );
}

function Currency({
  money,
  conversion,
  days,
  mrr,
  sales,
}: {
  money: MoneyFigures;
  conversion: number | null;
  days: string[];
  mrr: number[];
  /** Course sales during each step (one-time purchases: not part of MRR). */
  sales: number[];
}) {
  const format = moneyIn(money.currency);
  return (
    <div className="mt-3">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        <FigureStat label="MRR" value={money.mrr} format={format} testId={`figure-mrr-${money.currency}`} />
        <FigureStat label="ARPU" value={money.arpu} format={format} note={`${money.payingAtEnd} paying`} />
        <FigureStat label="Paid gained" value={money.paidGained} />
        <FigureStat label="Paid lost" value={money.paidLost} />
        <FigureStat
          label="Churn"
          value={money.churn}
          format={() => share(money.churn)}
          note={`of ${money.payingAtStart} paying at the start`}
        />
        <FigureStat
          label="Conversion"
          value={conversion}
          format={() => share(conversion)}
          note="free to paid"
        />
        <FigureStat
          label="Course sales"
          value={money.courseSales}
          format={format}
          note={`${money.coursesSold} bought on their own`}
          testId={`figure-course-sales-${money.currency}`}
        />
      </dl>
      <ChartFigure
        title={`Monthly recurring revenue (${money.currency.toUpperCase()})`}
        chart={
          <TimeChart days={days} series={[{ label: 'MRR', values: mrr, color: '#34d399' }]} format={format} />
        }
        table={
          <FigureTable
            caption="MRR at the end of each step, and course sales during it"
            columns={[
              { label: 'From', cell: (row: { day: string; mrr: number; sales: number }) => row.day },
              { label: 'MRR', cell: (row) => format(row.mrr), numeric: true },
              { label: 'Course sales', cell: (row) => format(row.sales), numeric: true },
            ]}
            rows={days.map((day, index) => ({ day, mrr: mrr[index] ?? 0, sales: sales[index] ?? 0 }))}
            rowKey={(row) => row.day}
          />
        }
      />
    </div>
  );
}
