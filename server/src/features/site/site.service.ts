import type { OwnerPageInput, SiteAdminView, SiteSettings } from '@common/schemas/site';
import type { OwnerPageName, OwnerPageView, SitePublic } from '@common/site';
import { renderMarkdown } from '../courses/markdown';
import type { MediaFolderRepository } from '../media/media-folder.repository';
import { DEFAULT_TEXTS, defaultMeta } from './default-pages';
import { checkSiteImage } from './site-images';
import type { SiteSettingsRepository } from './site-settings.repository';

/**
 * The site's identity and the owner's pages: what the Site panel saves and what every visitor's
 * page reads. Pages are rendered with the lessons' Markdown rules (marked, then sanitize-html)
 * when saved; a page left empty reads as its helpful default (default-pages.ts), rendered once
 * per change of the site.
 */
export class SiteService {
  private defaults: { revision: number; pages: Promise<Record<OwnerPageName, string>> } | null = null;

  constructor(
    private readonly site: SiteSettingsRepository,
    private readonly mediaFolder: MediaFolderRepository,
  ) {}

  get revision(): number {
    return this.site.revision;
  }

  async adminView(): Promise<SiteAdminView> {
    const [settings, stored] = await Promise.all([this.site.get(), this.site.getPages()]);
    const pages = {} as Record<OwnerPageName, OwnerPageInput>;
    for (const [name, { html: _html, ...page }] of Object.entries(stored))
      pages[name as OwnerPageName] = page;
    return { settings, site: publicOf(settings), pages };
  }

  async publicSite(): Promise<SitePublic> {
    return publicOf(await this.site.get());
  }

  /** The icon's file in the library, or null when none is chosen (the built-in favicon stays). */
  async iconFile(): Promise<string | null> {
    const { icon } = await this.site.get();
    if (!icon) return null;
    return checkSiteImage(await this.mediaFolder.get(), icon, 'icon').catch(() => null);
  }

  /** An owner page as visitors read it: the owner's words, or the helpful default where there are none. */
  async page(name: OwnerPageName): Promise<OwnerPageView> {
    const [site, pages] = await Promise.all([this.site.get(), this.site.getPages()]);
    const page = pages[name];
    const fallback = defaultMeta(name, site.name);
    const html = page.markdown.trim() ? page.html : (await this.defaultHtml(site))[name];
    return {
      name,
      title: page.title || fallback.title,
      description: page.description || fallback.description,
      headline: name === 'home' ? page.headline || site.tagline : '',
      html,
    };
  }

  /** Saves the identity, after checking the pictures; answers what was there before and after. */
  async saveSettings(input: SiteSettings): Promise<{ before: SiteSettings; after: SiteSettings }> {
    const base = await this.mediaFolder.get();
    if (input.logo) await checkSiteImage(base, input.logo, 'logo');
    if (input.icon) await checkSiteImage(base, input.icon, 'icon');
    const before = await this.site.get();
    await this.site.save(input);
    return { before, after: await this.site.get() };
  }

  async savePage(
    name: OwnerPageName,
    input: OwnerPageInput,
  ): Promise<{ before: OwnerPageInput; after: OwnerPageInput }> {
    const html = await renderMarkdown(input.markdown);
    const { html: _old, ...before } = (await this.site.getPages())[name];
    const after = { ...input, headline: name === 'home' ? input.headline : '' };
    await this.site.savePage(name, { ...after, html });
    return { before, after };
  }

  /** The editor's live preview: the very rules a page is saved with. */
  preview(markdown: string): Promise<string> {
    return renderMarkdown(markdown);
  }

  private defaultHtml(site: SiteSettings): Promise<Record<OwnerPageName, string>> {
    const revision = this.site.revision;
    if (this.defaults?.revision !== revision) {
      const pages = Promise.all(
        Object.entries(DEFAULT_TEXTS).map(
          async ([name, text]) => [name, await renderMarkdown(text(site))] as const,
        ),
      ).then((entries) => Object.fromEntries(entries) as Record<OwnerPageName, string>);
      this.defaults = { revision, pages };
    }
    return this.defaults.pages;
  }
}

export function publicOf(settings: SiteSettings): SitePublic {
  return {
    name: settings.name,
    tagline: settings.tagline,
    accentColor: settings.accentColor,
    contactEmail: settings.contactEmail,
    socialLinks: settings.socialLinks,
    logoUrl: settings.logo ? `/media/${settings.logo.split('/').map(encodeURIComponent).join('/')}` : null,
    hasIcon: Boolean(settings.icon),
  };
}
