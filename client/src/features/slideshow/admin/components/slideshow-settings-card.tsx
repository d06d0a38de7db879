import type { Playlist } from '@common/schemas/playlist';
import type { SlideshowSettings } from '@common/schemas/slideshow';
import { type FormEvent, useId } from 'react';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { CheckboxField } from '../../../../components/ui/checkbox-field';
import { INPUT_CLASS, TextField } from '../../../../components/ui/text-field';

const CHANNELS = ['Red', 'Green', 'Blue'] as const;

export function channelsOf(colour: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = colour.split(',').map((part) => Number(part) || 0);
  return [r, g, b];
}

export interface SlideshowSettingsCardProps {
  draft: SlideshowSettings;
  playlists: Playlist[];
  saving: boolean;
  /** True while the overlay differs from the saved one: the card then sits above the preview layer. */
  previewing: boolean;
  onChange: (change: Partial<SlideshowSettings>) => void;
  onSave: () => void;
}

/** The Background Manager's global slideshow settings: base path, playlist, timings, overlay, order. */
export function SlideshowSettingsCard({
  draft,
  playlists,
  saving,
  previewing,
  onChange,
  onSave,
}: SlideshowSettingsCardProps) {
  const ids = useId();
  const channels = channelsOf(draft.overlayColor);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  const number = (value: string) => (value === '' ? Number.NaN : Number(value));

  return (
    <Card className={previewing ? 'relative z-50' : ''}>
      <h2 className="text-lg font-semibold text-white">Global Slider Settings</h2>
      <form onSubmit={submit} className="mt-5 grid grid-cols-1 gap-5 md:grid-cols-2">
        <TextField
          label="Base path for backgrounds"
          className="md:col-span-2"
          value={draft.backgroundsBasePath}
          onChange={(e) => onChange({ backgroundsBasePath: e.target.value })}
          hint="The folder holding image/, video/ and audio/. It must be inside an allowed media folder."
        />
        <div>
          <label htmlFor={`${ids}-active`} className="mb-1.5 block text-sm font-medium text-stone-300">
            Active playlist
          </label>
          <select
            id={`${ids}-active`}
            className={INPUT_CLASS}
            value={draft.activePlaylist ?? ''}
            onChange={(e) => onChange({ activePlaylist: e.target.value || null })}
          >
            <option value="">None (play the whole library)</option>
            {playlists.map((playlist) => (
              <option key={playlist._id} value={playlist._id}>
                {playlist.name}
              </option>
            ))}
          </select>
        </div>
        <div className="grid grid-cols-2 items-end gap-4">
          <TextField
            label="Cycle time (ms)"
            type="number"
            min={1000}
            step={500}
            value={Number.isNaN(draft.cycleTime) ? '' : draft.cycleTime}
            onChange={(e) => onChange({ cycleTime: number(e.target.value) })}
          />
          <TextField
            label="Transition duration (ms)"
            type="number"
            min={0}
            step={100}
            value={Number.isNaN(draft.transitionDuration) ? '' : draft.transitionDuration}
            onChange={(e) => onChange({ transitionDuration: number(e.target.value) })}
          />
        </div>

        <fieldset className="min-w-0 rounded-xl border border-white/10 bg-black/20 p-4 md:col-span-2">
          <legend className="px-1 text-sm font-medium text-stone-300">Overlay</legend>
          <p className="mb-3 text-xs text-stone-400">
            Sets the pictures’ mood: the text of the public pages stays readable whatever you choose, none
            included.
          </p>
          <div className="grid items-center gap-x-6 gap-y-3 sm:grid-cols-[1fr_auto]">
            <div className="space-y-3">
              <Slider
                id={`${ids}-opacity`}
                label="Overlay opacity"
                min={0}
                max={1}
                step={0.01}
                value={draft.overlayOpacity}
                shown={draft.overlayOpacity.toFixed(2)}
                onChange={(overlayOpacity) => onChange({ overlayOpacity })}
              />
              {CHANNELS.map((name, index) => (
                <Slider
                  key={name}
                  id={`${ids}-${name}`}
                  label={name}
                  min={0}
                  max={255}
                  step={1}
                  value={channels[index]!}
                  shown={String(channels[index])}
                  onChange={(value) => {
                    const next = [...channels];
                    next[index] = value;
                    onChange({ overlayColor: next.join(',') });
                  }}
                />
              ))}
            </div>
            <div className="flex flex-col items-center gap-2">
              {/* The overlay over a checkerboard, so both colour and strength are visible. */}
              <div className="h-24 w-24 overflow-hidden rounded-xl border border-white/15 bg-[conic-gradient(#d6d3d1_25%,#78716c_0_50%,#d6d3d1_0_75%,#78716c_0)] bg-[length:16px_16px]">
                <div
                  className="h-full w-full"
                  style={{ backgroundColor: `rgba(${draft.overlayColor}, ${draft.overlayOpacity})` }}
                />
              </div>
              <span className="text-xs text-stone-400">rgb({draft.overlayColor})</span>
            </div>
          </div>
        </fieldset>

        <CheckboxField
          label="Randomize image order"
          checked={draft.randomOrder}
          onChange={(randomOrder) => onChange({ randomOrder })}
        />
        <div className="flex items-center justify-end gap-3 md:col-span-1">
          {previewing && <span className="text-xs text-accent-300">Previewing unsaved overlay</span>}
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save Settings'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

interface SliderProps {
  id: string;
  label: string;
  min: number;
  max: number;
  step: number;
  value: number;
  shown: string;
  onChange: (value: number) => void;
}

function Slider({ id, label, min, max, step, value, shown, onChange }: SliderProps) {
  return (
    <div className="grid grid-cols-[6.5rem_minmax(0,1fr)_2.5rem] items-center gap-3 sm:grid-cols-[8rem_minmax(0,1fr)_3rem]">
      <label htmlFor={id} className="text-sm text-stone-300">
        {label}
      </label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="accent-amber-400"
      />
      {/* A plain span: an <output> is a live status region, and would chatter on every drag. */}
      <span aria-hidden="true" className="text-right font-mono text-xs text-stone-300">
        {shown}
      </span>
    </div>
  );
}
