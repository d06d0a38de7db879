import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

/** One part of the account page: a card with a heading and a line saying what it is for. */
export function Section({
  title,
  intro,
  tone = 'normal',
  children,
}: {
  title: string;
  intro?: ReactNode;
  tone?: 'normal' | 'danger';
  children: ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <Card className={`w-full ${tone === 'danger' ? 'border-red-500/30' : ''}`}>
        <h2 id={id} className="font-display text-2xl text-white">
          {title}
        </h2>
        {intro && <p className="mt-1 text-sm text-stone-300">{intro}</p>}
        <div className="mt-5">{children}</div>
      </Card>
    </section>
  );
}

/** Save buttons sit on the right on wide screens and fill the width on a phone. */
export const ACTION_ROW = 'flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-end';
