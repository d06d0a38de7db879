import { MEDIA_EXTENSIONS, type MediaCategory } from '@common/media';
import { type DragEvent, useId, useState } from 'react';
import { acceptFor, CATEGORY_LABELS } from '../upload-rules';

export interface UploadZoneProps {
  category: MediaCategory;
  disabled: boolean;
  onFiles: (files: File[]) => void;
}

/** Drop files here or click to choose them; several at once either way. */
export function UploadZone({ category, disabled, onFiles }: UploadZoneProps) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!disabled && event.dataTransfer.files.length) onFiles([...event.dataTransfer.files]);
  }

  return (
    <label
      htmlFor={inputId}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={`flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors focus-within:border-accent-400 ${
        dragging
          ? 'border-accent-400 bg-accent-400/10'
          : 'border-white/20 bg-black/20 hover:border-white/40 hover:bg-white/5'
      } ${disabled ? 'pointer-events-none opacity-50' : ''}`}
    >
      <span aria-hidden="true" className="text-3xl text-accent-300">
        ⇪
      </span>
      <span className="font-semibold text-stone-100">
        Drag and drop {CATEGORY_LABELS[category].toLowerCase()} here, or click to browse
      </span>
      <span className="text-xs text-stone-400">
        {MEDIA_EXTENSIONS[category].join(', ')} · up to 200MB each · several files at once
      </span>
      <input
        id={inputId}
        type="file"
        multiple
        accept={acceptFor(category)}
        disabled={disabled}
        className="sr-only"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // Cleared so that choosing the same file again still counts as a change.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
    </label>
  );
}
