/** The formats of the Node.js panel's status block: uptime, sizes, CPU time. */

/** Days+hours, hours+minutes, minutes+seconds, or seconds: the two largest units that apply. */
export function formatUptime(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${rest}s`;
  return `${rest}s`;
}

const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

/** Bytes in the largest unit from B to GB that keeps the number at 1 or more (1024 per step). */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** User CPU time, given in microseconds, as seconds; N/A when the server did not say. */
export function formatCpu(userMicroseconds: number | undefined | null): string {
  return typeof userMicroseconds === 'number' && Number.isFinite(userMicroseconds)
    ? `${(userMicroseconds / 1_000_000).toFixed(2)}s`
    : 'N/A';
}
