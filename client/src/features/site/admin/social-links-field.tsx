import type { SocialLink } from '@common/site';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';

const MAX_LINKS = 8;

/** The footer's links to the owner's pages elsewhere (Instagram, YouTube…): a label and an https address each. */
export function SocialLinksField({
  links,
  onChange,
}: {
  links: SocialLink[];
  onChange: (links: SocialLink[]) => void;
}) {
  const change = (index: number, patch: Partial<SocialLink>) =>
    onChange(links.map((link, i) => (i === index ? { ...link, ...patch } : link)));
  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 text-sm font-medium text-stone-300">Social links (in the footer)</legend>
      {links.map((link, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; they are edited in place
        <div key={index} className="grid items-end gap-3 sm:grid-cols-[10rem_minmax(0,1fr)_auto]">
          <TextField
            label={`Label ${index + 1}`}
            value={link.label}
            maxLength={40}
            onChange={(e) => change(index, { label: e.target.value })}
          />
          <TextField
            label={`Address ${index + 1}`}
            type="url"
            placeholder="https://"
            value={link.url}
            maxLength={500}
            onChange={(e) => change(index, { url: e.target.value })}
          />
          <Button variant="ghost" onClick={() => onChange(links.filter((_, i) => i !== index))}>
            Remove
          </Button>
        </div>
      ))}
      {links.length < MAX_LINKS && (
        <Button variant="secondary" onClick={() => onChange([...links, { label: '', url: '' }])}>
          Add a social link
        </Button>
      )}
    </fieldset>
  );
}
