import type { HTMLAttributes } from 'react';

/**
 * Frosted glass panel that keeps text readable over the background slideshow: dark enough for
 * stone-400 text to keep 4.5:1 over a white picture (e2e/readable-text.spec.ts).
 */
export function Card({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={`rounded-2xl border border-white/10 bg-stone-950/85 p-6 shadow-2xl shadow-black/40 backdrop-blur-xl sm:p-8 ${className}`}
      {...props}
    />
  );
}
