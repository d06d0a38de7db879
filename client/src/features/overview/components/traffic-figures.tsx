import { type FiguresPeriod, useSourceFigures, useVisitFigures } from '../api';
import { ChartFigure, FigureTable } from './chart-figure';
import { BarChart, TimeChart } from './charts';
import { FiguresError } from './members-figures';

/** Where members came from: sign-ups and upgrades per source (docs/figures.md, "Sources"). */
export function SourcesCard({ period }: { period: FiguresPeriod }) {
  const { data, error } = useSourceFigures(period);
  if (error) return <FiguresError message={error.message} />;
  if (!data) return null;
  return (
    <section aria-labelledby="sources-heading" className="mt-8">
      <h3 id="sources-heading" className="text-base font-semibold text-white">
        Where members come from
      </h3>
      {data.length === 0 ? (
        <p className="mt-2 text-sm text-stone-400">Nobody signed up in this period.</p>
      ) : (
        <ChartFigure
          title="Sign-ups and upgrades by source"
          chart={
            <BarChart
              labels={data.map((row) => row.source)}
              series={[
                { label: 'Sign-ups', values: data.map((row) => row.signups), color: '#fbbf24' },
                { label: 'Upgrades', values: data.map((row) => row.upgrades), color: '#34d399' },
              ]}
            />
          }
          table={
            <FigureTable
              caption="Sign-ups and upgrades by source"
              columns={[
                { label: 'Source', cell: (row: (typeof data)[number]) => row.source },
                { label: 'Sign-ups', cell: (row) => row.signups, numeric: true },
                { label: 'Upgrades', cell: (row) => row.upgrades, numeric: true },
              ]}
              rows={data}
              rowKey={(row) => row.source}
            />
          }
        />
      )}
    </section>
  );
}

/** Page views and unique visitors, counted without cookies (docs/figures.md, "Visits"). */
export function VisitsCard({ period }: { period: FiguresPeriod }) {
  const { data, error } = useVisitFigures(period);
  if (error) return <FiguresError message={error.message} />;
  if (!data) return null;
  const views = data.days.reduce((sum, day) => sum + day.views, 0);
  return (
    <section aria-labelledby="visits-heading" className="mt-8">
      <h3 id="visits-heading" className="text-base font-semibold text-white">
        Visits
      </h3>
      <p className="mt-1 text-xs text-stone-400">
        Counted on this server without cookies; visitors who ask not to be tracked are left out.
      </p>
      <ChartFigure
        title={`Page views and visitors per day (${views.toLocaleString()} ${views === 1 ? 'view' : 'views'})`}
        chart={
          <TimeChart
            days={data.days.map((day) => day.day)}
            series={[
              { label: 'Page views', values: data.days.map((day) => day.views), color: '#fbbf24' },
              { label: 'Visitors', values: data.days.map((day) => day.visitors), color: '#7dd3fc' },
            ]}
          />
        }
        table={
          <FigureTable
            caption="Page views and visitors per day"
            columns={[
              { label: 'Day', cell: (row: (typeof data.days)[number]) => row.day },
              { label: 'Page views', cell: (row) => row.views, numeric: true },
              { label: 'Visitors', cell: (row) => row.visitors, numeric: true },
            ]}
            rows={data.days}
            rowKey={(row) => row.day}
          />
        }
      />
      {data.pages.length > 0 && (
        <div className="mt-4">
          <h4 className="text-sm font-semibold text-stone-200">Pages</h4>
          <FigureTable
            caption="Page views and visitors per page"
            columns={[
              { label: 'Page', cell: (row: (typeof data.pages)[number]) => row.page },
              { label: 'Page views', cell: (row) => row.views, numeric: true },
              { label: 'Visitors', cell: (row) => row.visitors, numeric: true },
            ]}
            rows={data.pages.slice(0, 20)}
            rowKey={(row) => row.page}
          />
        </div>
      )}
    </section>
  );
}
