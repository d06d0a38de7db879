import { MAX_PROXY_TARGETS } from '@common/nginx-defaults';
import { useEffect, useId, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { INPUT_CLASS } from '../../../components/ui/text-field';

export interface ProxyTargetsFieldProps {
  targets: string[];
  /** Indexes of the addresses the server refused, marked until the list is edited. */
  invalid: readonly number[];
  /** The server's words about them, shown under the list. */
  error?: string;
  onChange: (targets: string[]) => void;
}

/** SPEC's "Proxy pass", as a list: one address per app instance nginx forwards to. */
export function ProxyTargetsField({ targets, invalid, error, onChange }: ProxyTargetsFieldProps) {
  const hintId = useId();
  const errorId = useId();
  const list = useRef<HTMLUListElement>(null);
  const focusNext = useRef<number | null>(null);

  // A field added or moved into place by a removal gets the focus, so the keyboard stays in the list.
  useEffect(() => {
    if (focusNext.current === null) return;
    list.current?.querySelectorAll('input')[focusNext.current]?.focus();
    focusNext.current = null;
  });

  const set = (index: number, value: string) =>
    onChange(targets.map((target, i) => (i === index ? value : target)));
  const add = () => {
    focusNext.current = targets.length;
    onChange([...targets, '']);
  };
  const remove = (index: number) => {
    focusNext.current = Math.min(index, targets.length - 2);
    onChange(targets.filter((_, i) => i !== index));
  };
  const several = targets.length > 1;

  return (
    <fieldset className="md:col-span-2" aria-describedby={error ? `${errorId} ${hintId}` : hintId}>
      <legend className="mb-1.5 block text-sm font-medium text-stone-300">Proxy pass</legend>
      <ul ref={list} className="space-y-2">
        {targets.map((target, index) => {
          const label = several ? `Proxy pass address ${index + 1}` : 'Proxy pass';
          const wrong = invalid.includes(index);
          return (
            // Addresses have no identity of their own; a row is its place in the list.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className="flex items-center gap-2">
              <input
                aria-label={label}
                className={`${INPUT_CLASS} ${wrong ? 'border-red-400 ring-2 ring-red-400/30' : ''}`}
                value={target}
                onChange={(event) => set(index, event.target.value)}
                placeholder="http://127.0.0.1:5001"
                aria-invalid={wrong || undefined}
                aria-describedby={wrong && error ? errorId : undefined}
                autoComplete="off"
                spellCheck={false}
              />
              {several && (
                <Button
                  variant="ghost"
                  className="shrink-0 px-3"
                  onClick={() => remove(index)}
                  aria-label={`Remove ${target.trim() || `address ${index + 1}`}`}
                >
                  Remove
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {error && (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-300">
          {error}
        </p>
      )}
      <div className="mt-2 flex flex-wrap items-start gap-x-4 gap-y-2">
        <Button
          variant="secondary"
          className="px-3 py-1.5"
          onClick={add}
          disabled={targets.length >= MAX_PROXY_TARGETS}
        >
          Add address
        </Button>
        <p id={hintId} className="min-w-0 flex-1 basis-64 text-xs text-stone-400">
          Where requests go that nginx does not answer itself, e.g. http://127.0.0.1:5001. With several app
          instances, add each one: nginx shares the requests among them and sends a request on to the next
          when one stops answering.
        </p>
      </div>
    </fieldset>
  );
}
