import type { AccountExport } from '@common/schemas/account';

/** "Download my data" (GDPR articles 15 and 20); its sections are `AccountExport`'s. */
export function accountExport(parts: Omit<AccountExport, 'exportedAt'>): AccountExport {
  return { exportedAt: new Date().toISOString(), ...parts };
}
