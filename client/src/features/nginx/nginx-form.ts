import type { NginxConfig } from '@common/nginx-defaults';
import { NGINX_DEFAULTS, proxyTargetsOf } from '@common/nginx-defaults';
import type { NginxRefusal } from '@common/schemas/nginx';
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
 * Which rows of the form a refusal of the proxy addresses is about: the server names the places
 * of those at fault in the list it was sent (blank rows are not sent), else every row is.
 */
export function refusedTargets(targets: readonly string[], refused: readonly number[] | undefined): number[] {
  const sent = targets.flatMap((target, row) => (target.trim() ? [row] : []));
  if (!refused) return targets.map((_, row) => row);
  return refused.flatMap((place) => (sent[place] === undefined ? [] : [sent[place]]));
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
  warning?: string;
  /** The server's own words when it refused, shown under the refused field. */
  refusal?: string;
  /** The form field the server refused, as it names it (`field`). */
  field?: keyof NginxConfig;
  /** For the proxy addresses: the places in the sent list of those at fault (`targets`). */
  targets?: number[];
}

/** The Nginx panel's words for every success and failure of a save or restart. */
export function outcomeOf(
  texts: ActionTexts,
  result: { answer: NginxAnswer } | { failure: unknown },
): Outcome {
  if ('answer' in result) {
    if (result.answer.success) return { ok: true, text: texts.done, warning: result.answer.warning };
    const error = result.answer.error || 'Unknown error';
    return { ok: false, text: `${texts.refused}${error}`, refusal: error };
  }
  const { failure } = result;
  // The server answered with a refusal: the same words as an answer with success: false, and the
  // field and addresses it names, read from the answer's own fields.
  if (failure instanceof ApiError && failure.fromServer) {
    const refusal = (failure.body ?? {}) as Partial<NginxRefusal>;
    return {
      ok: false,
      text: `${texts.refused}${failure.message || 'Unknown error'}`,
      refusal: failure.message,
      field: refusal.field,
      targets: refusal.targets,
    };
  }
  const message = failure instanceof Error ? failure.message : String(failure);
  return { ok: false, text: `${texts.failed}${message}` };
}
