import { useId, useState } from 'react';
import { INPUT_CLASS } from '../../../components/ui/text-field';

const NEW_DATABASE = '\u0000new';

export interface DatabaseFieldProps {
  value: string;
  /** The server's databases and any the last Test Connection found. */
  databases: string[];
  onChange: (database: string) => void;
}

/** The database dropdown, with a way to type the name of one that does not exist yet. */
export function DatabaseField({ value, databases, onChange }: DatabaseFieldProps) {
  const id = useId();
  const [typing, setTyping] = useState(false);
  const names = [...new Set([...databases, value].filter(Boolean))].sort();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-stone-300">
        Database
      </label>
      {typing ? (
        <input
          id={id}
          className={INPUT_CLASS}
          required
          autoComplete="off"
          spellCheck={false}
          pattern="[A-Za-z0-9_\-]{1,63}"
          placeholder="new database name"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <select
          id={id}
          className={INPUT_CLASS}
          value={value}
          onChange={(e) => {
            if (e.target.value === NEW_DATABASE) {
              setTyping(true);
              onChange('');
            } else onChange(e.target.value);
          }}
        >
          {names.map((name) => (
            <option key={name} value={name} className="bg-stone-900">
              {name}
            </option>
          ))}
          <option value={NEW_DATABASE} className="bg-stone-900">
            Another database…
          </option>
        </select>
      )}
      <p className="mt-1 text-xs text-stone-400">
        {typing ? (
          <button type="button" className="text-accent-300 hover:underline" onClick={() => setTyping(false)}>
            Choose from the list
          </button>
        ) : (
          'MongoDB creates a new database when the site is copied into it.'
        )}
      </p>
    </div>
  );
}
