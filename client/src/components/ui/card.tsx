import type { HTMLAttributes } from 'react';

/** Frosted glass panel that keeps text readable over the background slideshow. */
export function Card({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={`rounded-2xl border border-white/10 bg-stone-950/60 p-6 shadow-2xl shadow-black/40 backdrop-blur-xl sm:p-8 ${className}`}
      {...props}
    />
  );
}
