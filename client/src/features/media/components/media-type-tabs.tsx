import { MEDIA_CATEGORIES, type MediaCategory } from '@common/media';
import { CATEGORY_LABELS } from '../upload-rules';

export interface MediaTypeTabsProps {
  value: MediaCategory;
  onChange: (category: MediaCategory) => void;
  disabled: boolean;
}

export function MediaTypeTabs({ value, onChange, disabled }: MediaTypeTabsProps) {
  return (
    <div
      role="tablist"
      aria-label="Media type"
      className="inline-flex rounded-xl border border-white/10 bg-stone-950/60 p-1 backdrop-blur"
    >
      {MEDIA_CATEGORIES.map((category) => (
        <button
          key={category}
          type="button"
          role="tab"
          aria-selected={value === category}
          disabled={disabled}
          onClick={() => onChange(category)}
          className={`rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed ${
            value === category
              ? 'bg-accent-400 text-stone-950'
              : 'text-stone-300 hover:bg-white/10 hover:text-white'
          }`}
        >
          {CATEGORY_LABELS[category]}
        </button>
      ))}
    </div>
  );
}
