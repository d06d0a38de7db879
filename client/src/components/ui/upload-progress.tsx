/** How much of one file's upload has gone, 0 to 1, as a labelled bar. */
export function UploadProgress({ name, progress }: { name: string; progress: number }) {
  const percent = Math.round(progress * 100);
  return (
    <div
      role="progressbar"
      aria-label={`Uploading ${name}`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-white/10"
    >
      <div
        className="h-full rounded-full bg-accent-400 transition-[width]"
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
