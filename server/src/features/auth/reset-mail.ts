import { escapeHtml } from '../../lib/escape-html';
import type { Mail } from '../../mail/mailer';
import { fromSite } from '../../mail/site-mail';

export function resetPasswordMail(to: string, name: string, link: string, siteName: string): Mail {
  return fromSite(siteName, {
    to,
    subject: 'reset your password',
    text: [
      `Hello ${name},`,
      '',
      'Someone asked to reset the password of your account. To choose a new password, open this link within one hour:',
      '',
      link,
      '',
      'If it was not you, ignore this message: your password stays as it is.',
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(name)},</p>
<p>Someone asked to reset the password of your account. To choose a new password, open this link within one hour:</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>If it was not you, ignore this message: your password stays as it is.</p>`,
  });
}
