import { mediaUrl } from '@common/media';
import type { SiteAdminView, SiteSettings } from '@common/schemas/site';
import { contrastWithWhite, MAX_SITE_IMAGE_BYTES, MIN_ACCENT_CONTRAST } from '@common/site';
import { type FormEvent, useEffect, useState } from 'react';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { CoverPicker } from '../../courses/admin/cover-picker';
import { useSaveSite } from './api';
import { SocialLinksField } from './social-links-field';

/** A library address (`/media/image/a%20b.png`) as the settings keep it (`image/a b.png`). */
const pathOf = (url: string | null) => (url ? decodeURIComponent(url.replace(/^\/media\//, '')) : null);

/** The site's identity: a form saved as a whole; the server checks it again and says what is wrong. */
export function SiteIdentityForm({
  view,
  onUnsaved,
}: {
  view: SiteAdminView;
  onUnsaved: (what: string | null) => void;
}) {
  const save = useSaveSite();
  const notices = useNotices();
  const [draft, setDraft] = useState<SiteSettings>(view.settings);
  const set = <K extends keyof SiteSettings>(key: K, value: SiteSettings[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const unsaved = JSON.stringify(draft) !== JSON.stringify(view.settings);
  useEffect(() => onUnsaved(unsaved ? 'the site settings' : null), [onUnsaved, unsaved]);

  const validColour = /^#[0-9a-f]{6}$/i.test(draft.accentColor);
  const contrast = validColour ? contrastWithWhite(draft.accentColor) : null;
  const colourProblem = !validColour
    ? 'The accent colour must be a colour like #b45309.'
    : contrast! < MIN_ACCENT_CONTRAST
      ? `White text on this colour has a contrast of ${contrast!.toFixed(2)}:1; it needs at least ${MIN_ACCENT_CONTRAST}:1 to stay readable. Choose a darker colour.`
      : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await save.mutateAsync(draft);
      setDraft(saved.data.settings);
      notices.success('Site settings saved: every page shows them now.');
    } catch (error) {
      notices.error('The site settings were not saved.', { detail: (error as Error).message });
    }
  };

  return (
    <Card>
      <form onSubmit={submit} className="space-y-5" aria-labelledby="site-identity-heading">
        <h2 id="site-identity-heading" className="text-lg font-semibold text-white">
          Name, pictures and colour
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Site name"
            value={draft.name}
            maxLength={60}
            required
            onChange={(e) => set('name', e.target.value)}
            hint="Shown in every page’s title, the header, the footer, link previews and e-mails."
          />
          <TextField
            label="Tagline"
            value={draft.tagline}
            maxLength={160}
            onChange={(e) => set('tagline', e.target.value)}
            hint="One line under the name on the home page."
          />
          <TextField
            label="Contact e-mail"
            type="email"
            value={draft.contactEmail}
            maxLength={254}
            onChange={(e) => set('contactEmail', e.target.value)}
            hint="Shown on the Contact and Privacy pages. Leave empty for none."
          />
          <div>
            <TextField
              label="Accent colour"
              value={draft.accentColor}
              maxLength={7}
              onChange={(e) => set('accentColor', e.target.value.trim())}
              error={colourProblem}
              hint={
                contrast ? `Buttons use it under white text: contrast ${contrast.toFixed(2)}:1.` : undefined
              }
              trailing={
                <input
                  type="color"
                  aria-label="Pick the accent colour"
                  value={validColour ? draft.accentColor : '#b45309'}
                  onChange={(e) => set('accentColor', e.target.value)}
                  className="h-8 w-10 cursor-pointer rounded border border-white/20 bg-transparent"
                />
              }
            />
            <p
              aria-hidden="true"
              className="mt-2 inline-block rounded-full px-5 py-2 text-sm font-semibold text-white"
              style={{ background: validColour ? draft.accentColor : undefined }}
            >
              Sign In
            </p>
          </div>
        </div>
        <div className="grid gap-6 sm:grid-cols-2">
          <CoverPicker
            value={draft.logo ? mediaUrl(draft.logo) : null}
            onChange={(url) => set('logo', pathOf(url))}
            words={{ label: 'Logo', noun: 'the logo', shape: 'wide', maxBytes: MAX_SITE_IMAGE_BYTES }}
          />
          <CoverPicker
            value={draft.icon ? mediaUrl(draft.icon) : null}
            onChange={(url) => set('icon', pathOf(url))}
            words={{
              label: 'Icon (square)',
              noun: 'the icon',
              shape: 'square',
              maxBytes: MAX_SITE_IMAGE_BYTES,
            }}
          />
        </div>
        <SocialLinksField links={draft.socialLinks} onChange={(links) => set('socialLinks', links)} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={!unsaved || save.isPending || Boolean(colourProblem)}>
            {save.isPending ? 'Saving…' : 'Save site settings'}
          </Button>
          {unsaved && (
            <Button variant="ghost" onClick={() => setDraft(view.settings)}>
              Undo changes
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
