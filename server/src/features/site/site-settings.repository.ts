import type { OwnerPageInput, SiteSettings } from '@common/schemas/site';
import { OWNER_PAGES, type OwnerPageName, SITE_DEFAULTS } from '@common/site';
import { StoredSettingsRepository } from '../../settings/stored-settings.repository';
import type { Store } from '../../store/store';
import type { SharedChanges } from '../shared-state/shared-changes';

/** An owner page as stored: the Markdown the owner wrote and the safe HTML made from it at the save. */
export interface StoredOwnerPage extends OwnerPageInput {
  html: string;
}

export type StoredPages = Record<OwnerPageName, StoredOwnerPage>;

const EMPTY_PAGE: StoredOwnerPage = { title: '', description: '', headline: '', markdown: '', html: '' };

/**
 * The site's identity (`site`) and the owner's pages (`site-pages`): two documents of the
 * `settings` collection, so they live in the store (SQLite or MongoDB), are in its backups and
 * are copied by a move to MongoDB like every collection. Every page, mail and worker reads them
 * through here: kept in memory and read again only when the `site` change topic moves (a save
 * in this process at once, in another within a second: see shared-state/).
 */
export class SiteSettingsRepository {
  private readonly settings: StoredSettingsRepository<SiteSettings>;
  private readonly pages: StoredSettingsRepository<StoredPages>;
  private cached: { revision: number; settings: Promise<SiteSettings>; pages: Promise<StoredPages> } | null =
    null;

  constructor(
    store: Store,
    private readonly changes: SharedChanges,
  ) {
    this.settings = new StoredSettingsRepository(store, 'site');
    this.pages = new StoredSettingsRepository(store, 'site-pages');
  }

  init(): Promise<void> {
    return this.settings.init();
  }

  /** Goes up at every save of the site's settings or pages, in any process. */
  get revision(): number {
    return this.changes.revision('site');
  }

  /** The site's identity; missing fields read as a fresh install's. */
  async get(): Promise<SiteSettings> {
    return this.current().settings;
  }

  /** The site's name, for mails and pages. */
  async name(): Promise<string> {
    return (await this.get()).name;
  }

  async getPages(): Promise<StoredPages> {
    return this.current().pages;
  }

  async save(settings: SiteSettings): Promise<void> {
    await this.settings.write(settings);
    await this.changed();
  }

  async savePage(name: OwnerPageName, page: StoredOwnerPage): Promise<void> {
    const pages = await this.pages.read();
    await this.pages.write({ ...pages, [name]: page });
    await this.changed();
  }

  private async changed(): Promise<void> {
    this.cached = null;
    await this.changes.bump('site');
  }

  private current() {
    const revision = this.revision;
    if (this.cached?.revision !== revision) {
      const settings = this.settings.read().then((saved) => ({
        ...SITE_DEFAULTS,
        logo: null,
        icon: null,
        ...saved,
      }));
      const pages = this.pages.read().then((saved) => {
        const all = {} as StoredPages;
        for (const name of OWNER_PAGES) all[name] = { ...EMPTY_PAGE, ...saved?.[name] };
        return all;
      });
      // A failed read is not kept: the next reader asks the store again.
      const entry = { revision, settings, pages };
      const forget = () => {
        if (this.cached === entry) this.cached = null;
      };
      settings.catch(forget);
      pages.catch(forget);
      this.cached = entry;
    }
    return this.cached!;
  }
}
