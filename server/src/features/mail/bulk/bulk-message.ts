import type { BulkKind } from '@common/schemas/mail-members';
import { escapeHtml } from '../../../lib/escape-html';
import { fromHeader } from '../../../mail/mail-queue';
import type { MailContent } from '../../../mail/mail-queue-files';
import type { UnsubscribeLinks } from '../preferences/unsubscribe-links';

export interface BulkMessageParts {
  subject: string;
  /** The Markdown as written: the plain-text part. */
  markdown: string;
  /** renderMarkdown's HTML (sanitised). */
  html: string;
  kind: BulkKind;
}

const KIND_WORDS: Record<BulkKind, string> = {
  announcements: 'announcements',
  lessons: 'news of new lessons',
};

/**
 * One bulk mail as it leaves: the site's name as sender, links made absolute, and what Gmail and
 * Yahoo require of bulk senders (RFC 8058): List-Unsubscribe with the member's own HTTPS address,
 * List-Unsubscribe-Post for one-click, and a List-Id. Transactional mail never goes through here.
 */
export function bulkMessage(
  parts: BulkMessageParts,
  to: { userId: string; email: string },
  env: { from: string; siteName: string; publicUrl: string; links: UnsubscribeLinks },
): MailContent {
  const unsubscribe = env.links.url(to.userId, parts.kind);
  const host = new URL(env.publicUrl).hostname;
  const body = absoluteLinks(parts.html, env.publicUrl);
  const footer = `You receive ${KIND_WORDS[parts.kind]} as a member of ${env.siteName}.`;
  return {
    from: fromHeader(env.from, env.siteName),
    to: to.email,
    subject: parts.subject,
    text: `${parts.markdown}\n\n--\n${footer}\nUnsubscribe or choose your mails: ${unsubscribe}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:40em;margin:auto;padding:1em">${body}<hr><p style="font-size:0.85em;color:#555">${escapeHtml(footer)} <a href="${escapeHtml(unsubscribe)}">Unsubscribe or choose your mails</a></p></body></html>`,
    list: {
      unsubscribe: { url: unsubscribe },
      id: { url: `${parts.kind}.${host}`, comment: `${env.siteName} ${KIND_WORDS[parts.kind]}` },
    },
    headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** The site's own paths (`/courses/…`, `/media/…`) as full addresses: a mail has no page to be relative to. */
export function absoluteLinks(html: string, publicUrl: string): string {
  return html.replace(/(href|src)="\/(?!\/)/g, `$1="${publicUrl}/`);
}
