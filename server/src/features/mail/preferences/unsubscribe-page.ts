import type { BulkKind, MailPreferences } from '@common/schemas/mail-members';
import { escapeHtml } from '../../../lib/escape-html';

/**
 * The page an unsubscribe address shows on GET: it changes nothing (mail scanners open every
 * link), it offers one button for the kind of mail the link came in, and the member's choices.
 * Plain HTML from the server, with no script: it must work in any mail program's browser.
 */
export function unsubscribePage(view: {
  site: string;
  email: string;
  kind: BulkKind;
  preferences: MailPreferences;
  done?: string;
}): string {
  const words: Record<BulkKind, string> = { announcements: 'announcements', lessons: 'news of new lessons' };
  const box = (name: BulkKind, label: string) =>
    `<label><input type="checkbox" name="${name}" value="on"${view.preferences[name] ? ' checked' : ''}> ${label}</label>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Your mail from ${escapeHtml(view.site)}</title>
<style>body{font-family:system-ui,sans-serif;line-height:1.5;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
button{font:inherit;padding:.6rem 1.2rem;border-radius:.4rem;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button.quiet{background:#fff;color:#1d4ed8}form{margin:1.5rem 0}label{display:block;margin:.4rem 0}.done{padding:.8rem;background:#ecfdf5;border:1px solid #059669;border-radius:.4rem}</style>
</head><body><main>
<h1>Your mail from ${escapeHtml(view.site)}</h1>
<p>For <strong>${escapeHtml(view.email)}</strong>.</p>
${view.done ? `<p class="done" role="status">${escapeHtml(view.done)}</p>` : ''}
<form method="post"><input type="hidden" name="action" value="unsubscribe">
<button type="submit">Unsubscribe from ${words[view.kind]}</button></form>
<h2>Or choose what you receive</h2>
<form method="post"><input type="hidden" name="action" value="choose">
${box('announcements', 'Announcements from the site')}
${box('lessons', 'News of new lessons in courses I started')}
<button type="submit" class="quiet">Save my choices</button></form>
<p>Mail about your account (password resets, receipts) is always sent.</p>
</main></body></html>`;
}
