// autocannon ships no types; this covers the part the benchmarks use.
declare module 'autocannon' {
  interface Stats {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    /** Only on `requests`: how many were made in all. */
    total: number;
  }
  export interface Result {
    requests: Stats & { total: number; sent: number };
    latency: Stats;
    throughput: Stats;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '3xx': number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    timeout?: number;
    /** Each connection cycles through these, one after the other. */
    requests?: Array<{
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }>;
  }
  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
