import type { BulkSettings, WelcomeSettings } from '@common/schemas/mail-members';
import { StoredSettingsRepository } from '../../settings/stored-settings.repository';
import type { Store } from '../../store/store';

/** A pace most small mail servers and providers accept without throttling. */
export const DEFAULT_BULK_SETTINGS: BulkSettings = { perMinute: 600 };

/** On by default, with text that helps: the owner edits it in the console's Mail section. */
export const DEFAULT_WELCOME: WelcomeSettings = {
  free: {
    enabled: true,
    subject: 'Welcome to {{site}}, {{name}}',
    markdown:
      'Hello {{name}},\n\nWelcome to **{{site}}**! Your free membership is ready.\n\n- Open [your dashboard](/dashboard) to see the courses you can start today.\n- Free lessons are marked in each course: begin with one of those.\n\nReply to this mail if anything is unclear: we read every message.',
  },
  paid: {
    enabled: true,
    subject: 'Thank you, {{name}}: your paid membership is open',
    markdown:
      'Hello {{name}},\n\nThank you for joining the paid membership of **{{site}}**. Every course and lesson is now open to you.\n\n- Go to [your dashboard](/dashboard) and pick up where you left off.\n- Manage your subscription any time from [your account](/account).\n\nEnjoy the lessons!',
  },
};

interface MailSettings extends BulkSettings {
  welcome: WelcomeSettings;
}

/**
 * Mail to members' settings, in the store (every process and machine reads the same; each read
 * is fresh, so a change applies at the sender's next batch everywhere).
 */
export class MailSettingsRepository {
  private readonly saved: StoredSettingsRepository<MailSettings>;

  constructor(store: Store) {
    this.saved = new StoredSettingsRepository(store, 'mail');
  }

  init(): Promise<void> {
    return this.saved.init();
  }

  async bulk(): Promise<BulkSettings> {
    return { perMinute: (await this.saved.read())?.perMinute ?? DEFAULT_BULK_SETTINGS.perMinute };
  }

  async welcome(): Promise<WelcomeSettings> {
    const saved = (await this.saved.read())?.welcome;
    return { free: saved?.free ?? DEFAULT_WELCOME.free, paid: saved?.paid ?? DEFAULT_WELCOME.paid };
  }

  async saveWelcome(welcome: WelcomeSettings): Promise<void> {
    await this.saved.write({ ...(await this.saved.read()), welcome });
  }

  async saveBulk(settings: BulkSettings): Promise<void> {
    await this.saved.write({ ...(await this.saved.read()), ...settings });
  }
}
