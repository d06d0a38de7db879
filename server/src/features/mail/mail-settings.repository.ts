import type { BulkSettings } from '@common/schemas/mail-members';
import { StoredSettingsRepository } from '../../settings/stored-settings.repository';
import type { Store } from '../../store/store';

/** A pace most small mail servers and providers accept without throttling. */
export const DEFAULT_BULK_SETTINGS: BulkSettings = { perMinute: 600 };

/**
 * Mail to members' settings, in the store (every process and machine reads the same; each read
 * is fresh, so a change applies at the sender's next batch everywhere).
 */
export class MailSettingsRepository {
  private readonly saved: StoredSettingsRepository<BulkSettings>;

  constructor(store: Store) {
    this.saved = new StoredSettingsRepository(store, 'mail');
  }

  init(): Promise<void> {
    return this.saved.init();
  }

  async bulk(): Promise<BulkSettings> {
    return { ...DEFAULT_BULK_SETTINGS, ...(await this.saved.read()) };
  }

  async saveBulk(settings: BulkSettings): Promise<void> {
    await this.saved.write({ ...(await this.saved.read()), ...settings });
  }
}
