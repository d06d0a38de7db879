import type { OwnerPageInput, SiteAdminView } from '@common/schemas/site';
import {
  OWNER_PAGE_LABELS,
  OWNER_PAGE_PATHS,
  OWNER_PAGES,
  type OwnerPageName,
  ownerPageWords,
} from '@common/site';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useConfirm } from '../../../components/console/confirm-dialog';
import { MarkdownField, useMarkdownPreview } from '../../../components/console/markdown-field';
import { useNotices } from '../../../components/console/notices';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { previewPage, useSavePage } from './api';

/** One owner page at a time: its title and description for search engines, and its text with a live preview. */
export function PageEditor({
  view,
  onUnsaved,
}: {
  view: SiteAdminView;
  onUnsaved: (what: string | null) => void;
}) {
  const ids = useId();
  const [name, setName] = useState<OwnerPageName>('home');
  const [draft, setDraft] = useState<OwnerPageInput>(view.pages.home);
  const preview = useMarkdownPreview(draft.markdown, previewPage);
  const saved = view.pages[name];
  const unsaved = JSON.stringify(draft) !== JSON.stringify(saved);
  useEffect(() => onUnsaved(unsaved ? ownerPageWords(name) : null), [onUnsaved, unsaved, name]);

  const confirm = useConfirm();
  const choose = async (next: OwnerPageName) => {
    if (
      unsaved &&
      !(await confirm({
        title: `Leave ${ownerPageWords(name)} without saving?`,
        message: 'What you typed on it is lost.',
        confirmLabel: 'Leave without saving',
        destructive: true,
      }))
    )
      return;
    setName(next);
    setDraft(view.pages[next]);
  };
  const set = <K extends keyof OwnerPageInput>(key: K, value: OwnerPageInput[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  const save = useSavePage();
  const notices = useNotices();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await save.mutateAsync({ name, page: draft });
      setDraft(answer.data.pages[name]);
      notices.success(`Saved ${ownerPageWords(name)}: it shows at ${OWNER_PAGE_PATHS[name]}.`);
    } catch (error) {
      notices.error(`Could not save ${ownerPageWords(name)}.`, {
        detail: (error as Error).message,
      });
    }
  };

  return (
    <Card>
      <form onSubmit={submit} className="space-y-5" aria-labelledby={`${ids}-heading`}>
        <h2 id={`${ids}-heading`} className="text-lg font-semibold text-white">
          Pages
        </h2>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Page to edit</legend>
          {OWNER_PAGES.map((page) => (
            <Button
              key={page}
              variant={page === name ? 'primary' : 'secondary'}
              aria-pressed={page === name}
              onClick={() => void choose(page)}
            >
              {OWNER_PAGE_LABELS[page]}
            </Button>
          ))}
        </fieldset>
        <p className="text-sm text-stone-300">
          Shows at{' '}
          <a
            href={OWNER_PAGE_PATHS[name]}
            target="_blank"
            rel="noreferrer"
            className="text-accent-300 underline"
          >
            {OWNER_PAGE_PATHS[name]}
          </a>
          . A field left empty shows the default words.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          {name !== 'home' && (
            <TextField
              label="Title"
              value={draft.title}
              maxLength={80}
              onChange={(e) => set('title', e.target.value)}
            />
          )}
          {name === 'home' && (
            <TextField
              label="Headline"
              value={draft.headline}
              maxLength={160}
              placeholder="The tagline"
              onChange={(e) => set('headline', e.target.value)}
              hint="Under the site’s name; the tagline when empty."
            />
          )}
          <TextField
            label="Description for search engines"
            value={draft.description}
            maxLength={300}
            onChange={(e) => set('description', e.target.value)}
          />
        </div>
        <MarkdownField
          id={`${ids}-text`}
          value={draft.markdown}
          onChange={(markdown) => set('markdown', markdown)}
          html={preview}
          height="min-h-72"
          placeholder={
            '## A heading\n\nWrite in **Markdown**: headings, lists, [links](https://example.com).'
          }
          empty={
            <p className="text-sm text-stone-400">
              The page as visitors will read it shows here. Empty, it shows the default words.
            </p>
          }
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={!unsaved || save.isPending}>
            {save.isPending ? 'Saving…' : `Save ${ownerPageWords(name)}`}
          </Button>
          {unsaved && (
            <Button variant="ghost" onClick={() => setDraft(saved)}>
              Undo changes
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
