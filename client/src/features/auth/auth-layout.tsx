import type { ReactNode } from 'react';
import { PageShell } from '../../app/page-shell';
import { Card } from '../../components/ui/card';

export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <PageShell>
      <Card className="w-full max-w-md">
        <h1 className="font-display text-3xl text-white">{title}</h1>
        {subtitle && <p className="mt-2 text-stone-300">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </Card>
    </PageShell>
  );
}

export const LINK_CLASS = 'font-medium text-accent-300 hover:text-accent-400';
