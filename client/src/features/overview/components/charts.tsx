import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
}

const HEIGHT = 220;
const AXIS = { stroke: '#a8a29e', grid: { stroke: 'rgba(255,255,255,0.07)' }, ticks: { show: false } };
/** Steps between a count's ticks: whole members and views, never 0.5 of one. */
const WHOLE_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7,
];

/**
 * A uPlot chart drawn into a box that follows its container's width (desktop or phone). The
 * canvas is hidden from screen readers: every chart has its table beside it (chart-figure.tsx).
 */
function usePlot(make: (width: number) => { options: uPlot.Options; data: uPlot.AlignedData }, key: string) {
  const box = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for what `make` draws.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { options, data } = make(element.clientWidth);
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [key]);
  return box;
}

/** Lines over days (YYYY-MM-DD), one per series: members, money, visits over time. */
export function TimeChart({
  days,
  series,
  format = (value) => value.toLocaleString(),
}: {
  days: string[];
  series: ChartSeries[];
  format?: (value: number) => string;
}) {
  const key = JSON.stringify([days, series]);
  const box = usePlot(
    (width) => ({
      options: {
        width,
        height: HEIGHT,
        scales: { x: { time: true } },
        axes: [AXIS, { ...AXIS, size: 64, incrs: WHOLE_STEPS, values: (_plot, ticks) => ticks.map(format) }],
        series: [
          {},
          ...series.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 2,
            // Dots only where they stand apart (a month by day on a desktop, not on a phone).
            points: { show: width / Math.max(1, days.length) > 16 },
            value: (_plot: uPlot, value: number | null) => (value === null ? '–' : format(value)),
          })),
        ],
        cursor: { drag: { x: false, y: false } },
      },
      data: [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((line) => line.values)],
    }),
    key,
  );
  return <div ref={box} aria-hidden="true" className="figures-chart text-stone-300" />;
}

/** Bars, one per label: sign-ups per source, members who reached each lesson. */
export function BarChart({ labels, series }: { labels: string[]; series: ChartSeries[] }) {
  const key = JSON.stringify([labels, series]);
  const box = usePlot(
    (width) => ({
      options: {
        width,
        height: HEIGHT,
        scales: { x: { time: false, range: [-0.5, labels.length - 0.5] } },
        axes: [
          {
            ...AXIS,
            splits: () => labels.map((_, index) => index),
            values: (_plot, ticks) => ticks.map((tick) => shorten(labels[tick] ?? '')),
          },
          { ...AXIS, size: 48, incrs: WHOLE_STEPS },
        ],
        series: [
          { value: (_plot: uPlot, index: number | null) => (index === null ? '–' : (labels[index] ?? '')) },
          ...series.map((bar, index) => ({
            label: bar.label,
            stroke: bar.color,
            fill: `${bar.color}aa`,
            width: 1,
            paths: uPlot.paths.bars!({ size: [0.7 / series.length, 48], align: index === 0 ? -1 : 1 }),
            points: { show: false },
          })),
        ],
        cursor: { drag: { x: false, y: false } },
      },
      data: [labels.map((_, index) => index), ...series.map((bar) => bar.values)],
    }),
    key,
  );
  return <div ref={box} aria-hidden="true" className="figures-chart text-stone-300" />;
}

const shorten = (label: string) => (label.length > 14 ? `${label.slice(0, 13)}…` : label);
