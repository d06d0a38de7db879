import type { ReactNode } from 'react';
import { PageShell } from '../../components/page/page-shell';
import { Card } from '../../components/ui/card';
import { useHydrated } from '../../lib/use-hydrated';

export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <PageShell>
      <Card className="w-full max-w-md">
        <h1 className="font-display text-3xl text-white">{title}</h1>
        {subtitle && <p className="mt-2 text-stone-300">{subtitle}</p>}
        {/* Disabled until the page's script has taken over a pre-rendered page (see useHydrated). */}
        <fieldset disabled={!hydrated} className="mt-6 min-w-0">
          {children}
        </fieldset>
      </Card>
    </PageShell>
  );
}

export const LINK_CLASS = 'font-medium text-accent-300 hover:text-accent-400';
