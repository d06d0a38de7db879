import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormMessage } from '../../../components/ui/form-message';
import { downloadMyData } from '../api';
import { errorText } from '../error-text';
import { ACTION_ROW, Section } from './section';

/** Everything the site keeps about the member, as a file they can keep or take elsewhere. */
export function DataSection() {
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);
  const onClick = async () => {
    setPending(true);
    setError('');
    try {
      await downloadMyData();
    } catch (err) {
      setError(errorText(err, 'Could not download your data'));
    } finally {
      setPending(false);
    }
  };
  return (
    <Section
      title="Your data"
      intro="A JSON file with everything this site keeps about you: your account and its billing, where you are signed in, your progress in courses and the Activity log's entries about your account."
    >
      {error && (
        <div className="mb-4">
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      )}
      <div className={ACTION_ROW}>
        <Button variant="secondary" onClick={onClick} disabled={pending}>
          Download my data
        </Button>
      </div>
    </Section>
  );
}
