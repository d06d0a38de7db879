/**
 * The name mail to members is sent under ("<name>" <address>) and that its footer names. The one
 * place it is read: the site's own name (a settings feature of its own) is wired in here.
 */
export function siteName(): string {
  return 'Members';
}
