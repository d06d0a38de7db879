import type { PaymentsCheck, PaymentsTestResult } from '@common/schemas/payments';

const MARKS: Record<PaymentsCheck['outcome'], { mark: string; words: string; tone: string }> = {
  ok: { mark: '✓', words: 'Passed', tone: 'text-emerald-300' },
  warning: { mark: '!', words: 'Note', tone: 'text-amber-300' },
  failed: { mark: '✗', words: 'Failed', tone: 'text-red-300' },
};

/** What Stripe said of the key and each price, one line per check, in plain words. */
export function TestResult({ result }: { result: PaymentsTestResult }) {
  return (
    <div
      role="status"
      aria-label="Test result"
      className={`mt-6 rounded-xl border p-4 ${
        result.ok ? 'border-emerald-500/30 bg-emerald-500/5' : 'border-red-500/30 bg-red-500/5'
      }`}
    >
      <p className="font-semibold text-white">
        {result.ok ? 'Stripe accepts these settings.' : 'Something needs fixing before members can pay.'}
      </p>
      <ul className="mt-3 space-y-2.5 text-sm">
        {result.checks.map((check) => {
          const mark = MARKS[check.outcome];
          return (
            <li key={check.label} className="flex gap-3">
              <span aria-hidden="true" className={`mt-0.5 w-4 shrink-0 text-center font-bold ${mark.tone}`}>
                {mark.mark}
              </span>
              <span>
                <span className="sr-only">{mark.words}: </span>
                <span className="font-medium text-stone-100">{check.label}</span>
                <span className="text-stone-300"> — {check.detail}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
