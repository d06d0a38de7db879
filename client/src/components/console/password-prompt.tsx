import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { setPasswordPrompt } from '../../lib/reauth-proof';
import { Button } from '../ui/button';
import { FormMessage } from '../ui/form-message';
import { ModalDialog } from '../ui/modal-dialog';
import { PasswordField } from '../ui/password-field';

/** Sends the typed password to the server, which answers a proof the api client remembers. */
export type PasswordCheck = UseMutationResult<unknown, Error, string>;

/**
 * Asks for the administrator's password before a change that can take the site (moving the
 * database, nginx, the Node.js server, giving or taking console rights). The server checks it
 * (`check`, the console's mutation) and answers a proof valid 10 minutes; the password itself is
 * never kept.
 */
export function PasswordPromptHost({ check }: { check: PasswordCheck }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const { reset } = check;
  const resolver = useRef<((ok: boolean) => void) | null>(null);
  const titleId = useId();

  useEffect(() => {
    setPasswordPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          resolver.current = resolve;
          setPassword('');
          reset();
          setOpen(true);
        }),
    );
    return () => setPasswordPrompt(null);
  }, [reset]);

  const finish = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setOpen(false);
    setPassword('');
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    check.mutate(password, { onSuccess: () => finish(true) });
  }

  return (
    <ModalDialog open={open} onCancel={() => finish(false)} titleId={titleId}>
      <form onSubmit={submit} className="space-y-4 p-6 sm:p-7">
        <h2 id={titleId} className="text-lg font-semibold text-white">
          Confirm it is you
        </h2>
        <p className="text-sm leading-relaxed text-stone-300">
          This change can give someone control of the site, take the site down or move its data. Type your
          password to go on; you will not be asked again for 10 minutes.
        </p>
        <PasswordField
          label="Your password"
          autoComplete="current-password"
          autoFocus
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {check.isError && <FormMessage tone="error">{check.error.message}</FormMessage>}
        <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => finish(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={check.isPending || !password}>
            {check.isPending ? 'Checking…' : 'Confirm'}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
