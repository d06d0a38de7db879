import type { FigureStep } from '@common/schemas/figures';
import { useState } from 'react';
import { SelectField } from '../../../components/ui/select-field';
import { TextField } from '../../../components/ui/text-field';
import type { FiguresPeriod } from '../api';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The picker's ready-made periods: each ends today (UTC). */
export const PRESETS = [
  { value: '7', label: 'Last 7 days', days: 7, step: 'day' },
  { value: '30', label: 'Last 30 days', days: 30, step: 'day' },
  { value: '90', label: 'Last 90 days', days: 90, step: 'week' },
  { value: '365', label: 'Last 12 months', days: 365, step: 'month' },
] as const satisfies ReadonlyArray<{ value: string; label: string; days: number; step: FigureStep }>;

export function presetPeriod(days: number, step: FigureStep, now = Date.now()): FiguresPeriod {
  return { from: dayOf(now - (days - 1) * DAY_MS), to: dayOf(now), step };
}

const STEPS = [
  { value: 'day', label: 'By day' },
  { value: 'week', label: 'By week' },
  { value: 'month', label: 'By month' },
];

/** Chooses the period of the figures: a ready-made one, or any days and step (the server judges them). */
export function PeriodPicker({
  period,
  onChange,
}: {
  period: FiguresPeriod;
  onChange: (next: FiguresPeriod) => void;
}) {
  const [preset, setPreset] = useState('30');
  const custom = preset === 'custom';
  return (
    <div className="flex flex-wrap items-end gap-3">
      <SelectField
        label="Period"
        value={preset}
        options={[
          ...PRESETS.map(({ value, label }) => ({ value, label })),
          { value: 'custom', label: 'Choose dates…' },
        ]}
        onChange={(event) => {
          setPreset(event.target.value);
          const chosen = PRESETS.find((candidate) => candidate.value === event.target.value);
          if (chosen) onChange(presetPeriod(chosen.days, chosen.step));
        }}
      />
      {custom && (
        <>
          <TextField
            label="From"
            type="date"
            value={period.from}
            className="[color-scheme:dark]"
            onChange={(event) => event.target.value && onChange({ ...period, from: event.target.value })}
          />
          <TextField
            label="To"
            type="date"
            value={period.to}
            className="[color-scheme:dark]"
            onChange={(event) => event.target.value && onChange({ ...period, to: event.target.value })}
          />
        </>
      )}
      <SelectField
        label="Step"
        value={period.step}
        options={STEPS}
        onChange={(event) => onChange({ ...period, step: event.target.value as FigureStep })}
      />
    </div>
  );
}
