const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in B, KB, MB, GB or TB (1 KB = 1024 B), as the explorer shows sizes. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** The status line shows the server's uptime, given in seconds, in hours. */
export function formatUptimeHours(seconds: number): string {
  const hours = seconds / 3600;
  return `${hours < 10 ? hours.toFixed(1) : Math.round(hours).toLocaleString('en-US')} hours`;
}

const numbers = new Intl.NumberFormat('en-US');
export const formatCount = (n: number) => numbers.format(n);
