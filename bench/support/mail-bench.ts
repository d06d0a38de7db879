/** The owner the mail benches sign in as (made from ADMIN_EMAIL at the product's first start). */
export const MAIL_BENCH_ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

/**
 * What every mail bench gives `npm start`: that owner, the bench's SMTP server on `smtpPort`, a
 * From on the bench's domain, and rate limits far above what the bench asks.
 */
export function mailBenchEnv(smtpPort: number): Record<string, string> {
  return {
    ADMIN_EMAIL: MAIL_BENCH_ADMIN.email,
    ADMIN_PASSWORD: MAIL_BENCH_ADMIN.password,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'site@bench.example',
    RATE_LIMIT_MAX: '100000',
  };
}
