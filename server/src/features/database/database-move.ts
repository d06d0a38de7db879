import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../lib/app-error';
import { redactUri } from '../../lib/redact';
import { type MongoSettings, mongoUri, writeStoreSettings } from '../../settings/store-settings';
import type { Store } from '../../store/store';
import { abandonCopy, contentsOf, copyStore } from '../../store/store-copy';
import { type UserDoc, UsersRepository } from '../users/users.repository';
import type { TargetConnector } from './mongo-target';

const PAUSED = 'The site is moving to a new database. Please try again in a minute.';

/**
 * Makes the target the site's store from the next start. An empty target first gets a copy of
 * everything; a target that already has users is taken as it is, but only if the administrator
 * doing this is an active administrator there. Writes to the current store stop before the copy
 * starts and stay stopped until the restart, so nothing is acknowledged here that the new store
 * lacks; if anything fails before the switch, they start again and nothing has changed.
 */
/** What a move needs of the database service's parts. */
export interface MoveDeps {
  store: Store;
  dataDir: string;
  targets: TargetConnector;
  log: FastifyBaseLogger;
}

export async function moveTo(
  deps: MoveDeps,
  settings: MongoSettings,
  admin: UserDoc,
): Promise<{ copied?: Record<string, number> }> {
  const uri = mongoUri(settings);
  const target = await deps.targets.open(uri);
  let resume: (() => void) | null = null;
  let moveId: string | null = null;
  try {
    const { counts, unfinished } = await contentsOf(target);
    if (unfinished) {
      throw new AppError(
        'CONFLICT',
        'An earlier copy into this database did not finish or was not switched to. Empty it (or choose another database) and save again.',
      );
    }
    let copied: Record<string, number> | undefined;
    if (!counts.users) {
      resume = await deps.store.pauseWrites(PAUSED);
      const result = await copyStore(deps.store, target, { from: await describeSource(deps.store) });
      copied = result.counts;
      moveId = result.moveId;
      deps.log.info({ to: redactUri(uri), ...result }, 'Copied the site to the new database');
    } else {
      await refuseLockOut(target, admin, counts.users);
      resume = await deps.store.pauseWrites(PAUSED);
    }
    await writeStoreSettings(deps.dataDir, {
      use: 'mongodb',
      mongodb: settings,
      switchedAt: new Date().toISOString(),
      switchedBy: admin.email,
    });
    return { copied };
  } catch (error) {
    // The site goes on here and will change; a copy it did not switch to must not pass for current.
    if (moveId) await abandonCopy(target, moveId).catch(() => {});
    resume?.();
    throw error;
  } finally {
    await target.close();
  }
}

async function refuseLockOut(target: Store, admin: UserDoc, users: number): Promise<void> {
  const there = await new UsersRepository(target).findByEmail(admin.email);
  if (there?.role === 'admin' && there.status === 'active') return;
  throw new AppError(
    'CONFLICT',
    `That database already has ${users} users and ${admin.email} is not an active administrator there: you would be locked out. ` +
      'Choose an empty database to copy this site into, or one where your account is an administrator.',
  );
}

async function describeSource(store: Store): Promise<string> {
  const info = await store.inspector.server();
  return `${info.kind === 'embedded' ? 'embedded store' : 'MongoDB'} at ${info.location}`;
}
