import type { FullConfig } from '@playwright/test';
import { startSite } from './site';

/**
 * Starts what the browser tests talk to: one site per worker slot (site.ts), side by side, so
 * that the workers never share a site's settings, members or mail. The client is already built
 * (test:e2e builds it first).
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const slots = Array.from({ length: config.workers }, (_, slot) => slot);
  const started = await Promise.allSettled(slots.map((slot) => startSite(slot)));
  const stops = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}
