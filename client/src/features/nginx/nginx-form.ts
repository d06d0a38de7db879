import type { NginxConfig } from '@common/nginx-defaults';
import { NGINX_DEFAULTS, NGINX_FIELD_LABELS, proxyTargetsOf } from '@common/nginx-defaults';
import { ApiError } from '../../lib/api-client';
import type { NginxAnswer } from './api';

/**
 * The form keeps ports as typed (they become integers when sent) and the proxy addresses as a
 * list, one field each (sent as the spec's one text, separated by spaces).
 */
export type NginxForm = Omit<NginxConfig, 'port' | 'sslPort' | 'proxyPass'> & {
  port: string;
  sslPort: string;
  proxyTargets: string[];
};

export function toForm({ proxyPass, ...config }: NginxConfig): NginxForm {
  const proxyTargets = proxyTargetsOf(proxyPass);
  return {
    ...config,
    port: String(config.port),
    sslPort: String(config.sslPort),
    proxyTargets: proxyTargets.length > 0 ? proxyTargets : [''],
  };
}

/**
 * Which proxy addresses a refusal of the field is about: the one it names (the server names the
 * one at fault when there are several), else all of them. A repeated address marks its repeat.
 */
export function refusedTargets(targets: readonly string[], refusal: string): number[] {
  const trimmed = targets.map((target) => target.trim());
  // The server puts the address at fault first: "Proxy pass X must…", "Proxy pass lists X twice".
  const named = refusal.split(' ').find((word) => word && trimmed.includes(word));
  if (named === undefined) return trimmed.map((_, index) => index);
  return [refusal.endsWith(' twice') ? trimmed.lastIndexOf(named) : trimmed.indexOf(named)];
}

/** Ports are parsed as integers; the HTTP port falls back to 80 and the HTTPS port to 443. */
export function toConfig(form: NginxForm): NginxConfig {
  const integer = (value: string, fallback: number) => {
    const parsed = Number.parseInt(value, 10);
    return Number.isNaN(parsed) ? fallback : parsed;
  };
  const { proxyTargets, ...rest } = form;
  return {
    ...rest,
    proxyPass: proxyTargets
      .map((target) => target.trim())
      .filter(Boolean)
      .join(' '),
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
  /** The server's own words when it refused. */
  refusal?: string;
  warning?: string;
  /** The form field the server refused, found by its label at the start of the message. */
  field?: keyof NginxConfig;
}

/** The Nginx panel's words for every success and failure of a save or restart. */
export function outcomeOf(
  texts: ActionTexts,
  result: { answer: NginxAnswer } | { failure: unknown },
): Outcome {
  if ('answer' in result) {
    if (result.answer.success) return { ok: true, text: texts.done, warning: result.answer.warning };
    const error = result.answer.error || 'Unknown error';
    return { ok: false, text: `${texts.refused}${error}`, refusal: error, field: fieldNamedIn(error) };
  }
  const { failure } = result;
  // The server answered with a refusal: the same words as an answer with success: false.
  if (failure instanceof ApiError && failure.fromServer) {
    return {
      ok: false,
      text: `${texts.refused}${failure.message || 'Unknown error'}`,
      refusal: failure.message,
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
