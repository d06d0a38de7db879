import { NGINX_DEFAULTS, NGINX_FIELD_LABELS } from '@common/nginx-defaults';
import type { NginxConfig } from '@common/schemas/nginx';
import { ApiError } from '../../lib/api-client';
import type { NginxAnswer } from './api';

/** The form keeps ports as typed; they become integers when sent. */
export type NginxForm = Omit<NginxConfig, 'port' | 'sslPort'> & { port: string; sslPort: string };

export function toForm(config: NginxConfig): NginxForm {
  return { ...config, port: String(config.port), sslPort: String(config.sslPort) };
}

/** SPEC section 5: parsed as integers; the HTTP port falls back to 80 and the HTTPS port to 443. */
export function toConfig(form: NginxForm): NginxConfig {
  const integer = (value: string, fallback: number) => {
    const parsed = Number.parseInt(value, 10);
    return Number.isNaN(parsed) ? fallback : parsed;
  };
  return {
    ...form,
    port: integer(form.port, NGINX_DEFAULTS.port),
    sslPort: integer(form.sslPort, NGINX_DEFAULTS.sslPort),
  };
}

export interface ActionTexts {
  done: string;
  /** Followed by the server's error, or 'Unknown error'. */
  refused: string;
  /** Followed by the exception's message (the server never answered). */
  failed: string;
}

export const SAVE_TEXTS: ActionTexts = {
  done: 'Nginx configuration saved successfully!',
  refused: 'Failed to save: ',
  failed: 'Failed to save Nginx configuration: ',
};

export const RESTART_TEXTS: ActionTexts = {
  done: 'Nginx restarted successfully!',
  refused: 'Failed to restart: ',
  failed: 'Failed to restart Nginx: ',
};

export interface Outcome {
  ok: boolean;
  text: string;
  warning?: string;
  /** The form field the server refused, found by its label at the start of the message. */
  field?: keyof NginxConfig;
}

/** SPEC section 8, web-server panel: the words of every success and failure. */
export function outcomeOf(
  texts: ActionTexts,
  result: { answer: NginxAnswer } | { failure: unknown },
): Outcome {
  if ('answer' in result) {
    if (result.answer.success) return { ok: true, text: texts.done, warning: result.answer.warning };
    const error = result.answer.error || 'Unknown error';
    return { ok: false, text: `${texts.refused}${error}`, field: fieldNamedIn(error) };
  }
  const { failure } = result;
  // The server answered with a refusal: the same words as an answer with success: false.
  if (failure instanceof ApiError && failure.fromServer) {
    return {
      ok: false,
      text: `${texts.refused}${failure.message || 'Unknown error'}`,
      field: fieldNamedIn(failure.message),
    };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return { ok: false, text: `${texts.failed}${message}` };
}

function fieldNamedIn(error: string): keyof NginxConfig | undefined {
  const entries = Object.entries(NGINX_FIELD_LABELS) as Array<[keyof NginxConfig, string]>;
  return entries.find(([, label]) => error.startsWith(`${label} `))?.[0];
}
