export interface FormMessageProps {
  tone: 'error' | 'success';
  children: string;
}

/** Inline feedback under a form; announced to screen readers as it appears. */
export function FormMessage({ tone, children }: FormMessageProps) {
  const colours =
    tone === 'error'
      ? 'border-red-500/40 bg-red-500/15 text-red-200'
      : 'border-emerald-500/40 bg-emerald-500/15 text-emerald-200';
  return (
    <p
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-3.5 py-2.5 text-sm ${colours}`}
    >
      {children}
    </p>
  );
}
