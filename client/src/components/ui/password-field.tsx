import { useState } from 'react';
import { TextField, type TextFieldProps } from './text-field';

/** A password input with a Show/Hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'trailing'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          className="rounded px-2 py-1 text-xs font-semibold uppercase tracking-wide text-stone-400 hover:text-accent-300"
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}
