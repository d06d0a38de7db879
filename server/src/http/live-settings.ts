import { type AppServerSettings, parseCorsOrigin, parseSize } from '@common/schemas/app-server';

/** The HTTP settings the console changes while the server runs, in the form the hooks use. */
export interface LiveHttpSettings {
  /** '*' or the exact origins allowed to call the API from another site. */
  corsOrigins: '*' | string[];
  maxRequestBytes: number;
  rateLimitWindowMs: number;
  rateLimitMax: number;
}

type LiveFields = Pick<
  AppServerSettings,
  'corsOrigin' | 'maxRequestSize' | 'rateLimitWindow' | 'rateLimitMax'
>;

function toLive(fields: LiveFields): LiveHttpSettings {
  const origins = parseCorsOrigin(fields.corsOrigin);
  return {
    corsOrigins: origins ?? '*',
    maxRequestBytes: parseSize(fields.maxRequestSize) ?? 50 * 1024 * 1024,
    rateLimitWindowMs: fields.rateLimitWindow,
    rateLimitMax: fields.rateLimitMax,
  };
}

/**
 * One holder per app, read by the CORS, body-size and rate-limit hooks on every request, so a
 * change saved in the console applies to the very next request without a restart: in the process
 * that saved it at once, in every other server process within a second (AppServerService reloads
 * the saved settings when SharedChanges reports an 'app-server' change).
 */
export class LiveSettings {
  private value: LiveHttpSettings;

  constructor(fields: LiveFields) {
    this.value = toLive(fields);
  }

  get current(): Readonly<LiveHttpSettings> {
    return this.value;
  }

  update(fields: LiveFields): void {
    this.value = toLive(fields);
  }
}
