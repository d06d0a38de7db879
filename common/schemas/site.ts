import { z } from 'zod';
import {
  contrastWithWhite,
  MIN_ACCENT_CONTRAST,
  OWNER_PAGES,
  type OwnerPageName,
  type SitePublic,
} from '../site';
import { emailSchema } from './user';

/** A library picture's path as the media lists give it (`image/<file>`), or null for none. */
const pictureSchema = z
  .string()
  .max(1024)
  .regex(/^image\/[^/\\]+$/, 'Pick a picture from the media library')
  .nullable();

/** Only plain words on one line: the name and tagline go into titles, mails and link previews. */
const lineSchema = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: line breaks and control characters are what is refused
    .regex(/^[^\x00-\x1f\x7f]*$/, `${label} must be one line`)
    .trim()
    .max(max, `${label} must be at most ${max} characters`);

export const accentColorSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^#[0-9a-f]{6}$/, 'The accent colour must be a colour like #b45309')
  .superRefine((hex, check) => {
    const contrast = contrastWithWhite(hex);
    if (contrast < MIN_ACCENT_CONTRAST)
      check.addIssue({
        code: 'custom',
        message: `White text on ${hex} has a contrast of ${contrast.toFixed(2)}:1; it needs at least ${MIN_ACCENT_CONTRAST}:1 to stay readable. Choose a darker colour.`,
      });
  });

const socialLinkSchema = z.object({
  label: lineSchema('A social link’s label', 40).min(1, 'Each social link needs a label'),
  url: z
    .string()
    .trim()
    .max(500, 'A social link is too long')
    .regex(/^https:\/\/[^\s"'<>]+$/i, 'A social link must be an address starting with https://'),
});

/** PUT /api/admin/site: the site's identity. */
export const siteSettingsBody = z.object({
  name: lineSchema('The site’s name', 60).min(1, 'The site’s name is required'),
  tagline: lineSchema('The tagline', 160),
  accentColor: accentColorSchema,
  contactEmail: z.union([z.literal(''), emailSchema]),
  socialLinks: z.array(socialLinkSchema).max(8, 'At most 8 social links'),
  logo: pictureSchema,
  icon: pictureSchema,
});
export type SiteSettings = z.infer<typeof siteSettingsBody>;

export const MAX_PAGE_MARKDOWN = 100_000;

/** PUT /api/admin/site/pages/:name: one owner page. */
export const ownerPageBody = z.object({
  title: lineSchema('The page’s title', 80),
  description: lineSchema('The description', 300),
  headline: lineSchema('The headline', 160).default(''),
  markdown: z.string().max(MAX_PAGE_MARKDOWN, `The text must be at most ${MAX_PAGE_MARKDOWN} characters`),
});
export type OwnerPageInput = z.infer<typeof ownerPageBody>;

export const ownerPageNameSchema = z.enum(OWNER_PAGES, { error: 'No such page' });

/** POST /api/admin/site/preview: the live preview of a page's text. */
export const sitePreviewBody = z.object({
  markdown: z.string().max(MAX_PAGE_MARKDOWN, `The text must be at most ${MAX_PAGE_MARKDOWN} characters`),
});

/** GET /api/admin/site: what the Site panel edits. */
export interface SiteAdminView {
  settings: SiteSettings;
  /** What visitors see of it (the logo's address). */
  site: SitePublic;
  /** Each page as the owner wrote it; '' fields are shown as the helpful default. */
  pages: Record<OwnerPageName, OwnerPageInput>;
}
