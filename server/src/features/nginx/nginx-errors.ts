/** Lines nginx marks as a failure, in its own words. */
const FAILURE = /\[(emerg|alert|crit|error)\]/;
/** "2026/11/22 21:47:43 [emerg] 6474#6474: text" as written in error.log. */
const LOG_LINE = /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[(\w+)\] \d+#\d+: (?:\*\d+ )?(.*)$/;

/** One error.log line in the form nginx prints on the terminal: "nginx: [emerg] text". */
export function normaliseLogLine(line: string): string {
  const match = LOG_LINE.exec(line.trim());
  return match ? `nginx: [${match[1]}] ${match[2]}` : line.trim();
}

/**
 * nginx's own error line from what it printed (`nginx -t`, a start) or logged, made clearer where
 * nginx's words alone leave a person stuck (a port below 1024 without the right to bind it).
 */
export function nginxErrorLine(output: string): string {
  const lines = output.split('\n').map(normaliseLogLine).filter(Boolean);
  const line = lines.find((l) => FAILURE.test(l)) ?? lines[0] ?? 'nginx failed without saying why';
  return explain(line);
}

export function explain(line: string): string {
  const denied = /bind\(\) to \S*?:(\d+) failed \(13: Permission denied\)/.exec(line);
  if (denied && Number(denied[1]) < 1024) {
    return (
      `${line}. Ports below 1024 need the right to bind them: nginx runs as the app's own user here, ` +
      'so choose a port of 1024 or above (8080, 8443), run nginx as root, or give the nginx binary ' +
      'the CAP_NET_BIND_SERVICE capability.'
    );
  }
  if (/bind\(\) to \S+ failed \(98: Address already in use\)/.test(line)) {
    return `${line}. Another program already listens on that port: choose another one.`;
  }
  return line;
}
