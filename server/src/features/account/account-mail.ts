import { escapeHtml } from '../../lib/escape-html';
import type { Mail } from '../../mail/mailer';
import { fromSite } from '../../mail/site-mail';

function mail(siteName: string, to: string, subject: string, paragraphs: string[], link?: string): Mail {
  const text = [...paragraphs.slice(0, 1), ...(link ? [link] : []), ...paragraphs.slice(1)].join('\n\n');
  const html = [
    `<p>${escapeHtml(paragraphs[0] ?? '')}</p>`,
    link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '',
    ...paragraphs.slice(1).map((p) => `<p>${escapeHtml(p)}</p>`),
  ].join('\n');
  return fromSite(siteName, { to, subject, text, html });
}

/**
 * To the new address: the link that makes the change. Anyone signed in can have it sent to any
 * address, so it carries nothing the member typed (not even their name): only our own words.
 */
export function confirmEmailMail(to: string, link: string, siteName: string): Mail {
  return mail(
    siteName,
    to,
    'confirm your new e-mail address',
    [
      `Hello, someone asked to use this address for their ${siteName} account. If it was you, open this link within 24 hours to confirm it:`,
      'Until then, the account keeps its current address. If it was not you, ignore this message: nothing changes.',
    ],
    link,
  );
}

/**
 * To an address that already has an account: no link, since the change could not be made. The
 * member who asked is told the same as for any other address, so the answer reveals nothing.
 */
export function emailTakenMail(to: string, siteName: string): Mail {
  return mail(siteName, to, 'this address already has an account', [
    `Someone signed in to ${siteName} asked to use this address for their account. It already belongs to an account, so nothing was changed.`,
    'If it was you, sign in with this address instead. Otherwise, ignore this message.',
  ]);
}

/** To the current address, so that the owner hears of a change they did not make. */
export function emailChangeNoticeMail(to: string, name: string, newEmail: string, siteName: string): Mail {
  return mail(siteName, to, 'a change of e-mail address was asked for', [
    `Hello ${name}, someone signed in to your account asked to change its e-mail address to ${newEmail}. The change happens only when the link sent to that address is opened.`,
    'If it was not you, sign in, change your password and choose "Sign out everywhere" in your account.',
  ]);
}
