import { NGINX_DEFAULTS } from '@common/nginx-defaults';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { outcomeOf, RESTART_TEXTS, refusedTargets, SAVE_TEXTS, toConfig, toForm } from './nginx-form';

const config = { ...NGINX_DEFAULTS, proxyPass: 'http://127.0.0.1:5001', staticRoot: '/srv/site' };

describe('the web-server form', () => {
  it('parses ports as integers, falling back to 80 and 443', () => {
    expect(toConfig({ ...toForm(config), port: '8080', sslPort: '8443' })).toMatchObject({
      port: 8080,
      sslPort: 8443,
    });
    expect(toConfig({ ...toForm(config), port: 'abc', sslPort: '' })).toMatchObject({
      port: 80,
      sslPort: 443,
    });
  });

  it('edits the proxy addresses as a list and sends them as the spec’s one text', () => {
    const several = toForm({ ...config, proxyPass: 'http://10.0.0.1:5001 http://10.0.0.2:5001' });
    expect(several.proxyTargets).toEqual(['http://10.0.0.1:5001', 'http://10.0.0.2:5001']);
    expect(toForm(config).proxyTargets).toEqual(['http://127.0.0.1:5001']);
    const edited = { ...several, proxyTargets: [' http://10.0.0.1:5001 ', '', 'http://10.0.0.3:5001'] };
    expect(toConfig(edited).proxyPass).toBe('http://10.0.0.1:5001 http://10.0.0.3:5001');
    expect(toConfig(toForm(config))).toEqual(config);
  });

  it('marks the rows of the proxy addresses the server names by place, else every row', () => {
    const targets = ['http://a:1', 'http://b:1;x', 'http://a:1'];
    expect(refusedTargets(targets, [1])).toEqual([1]);
    expect(refusedTargets(targets, [2])).toEqual([2]);
    // A blank row is not sent: the server's places count the rows that were.
    expect(refusedTargets(['http://a:1', ' ', 'https://b:1'], [1])).toEqual([2]);
    expect(refusedTargets(['http://a:99999', 'http://b:1'], undefined)).toEqual([0, 1]);
  });

  it('words every outcome as the spec does', () => {
    expect(outcomeOf(SAVE_TEXTS, { answer: { success: true } }).text).toBe(
      'Nginx configuration saved successfully!',
    );
    expect(outcomeOf(SAVE_TEXTS, { answer: { success: false } }).text).toBe('Failed to save: Unknown error');
    expect(outcomeOf(SAVE_TEXTS, { answer: { success: false, error: 'nope' } }).text).toBe(
      'Failed to save: nope',
    );
    expect(outcomeOf(SAVE_TEXTS, { failure: new TypeError('Failed to fetch') }).text).toBe(
      'Failed to save Nginx configuration: Failed to fetch',
    );
    expect(outcomeOf(RESTART_TEXTS, { answer: { success: true } }).text).toBe(
      'Nginx restarted successfully!',
    );
    expect(outcomeOf(RESTART_TEXTS, { failure: new ApiError('nginx is not installed', 503) }).text).toBe(
      'Failed to restart: nginx is not installed',
    );
    expect(outcomeOf(RESTART_TEXTS, { failure: new ApiError('HTTP 502', 502, undefined, false) }).text).toBe(
      'Failed to restart Nginx: HTTP 502',
    );
  });

  it('marks the field and the addresses the refusal names in its own fields, never by its words', () => {
    const body = { success: false, error: 'Any words at all', field: 'proxyPass', targets: [1] };
    const refusal = new ApiError('Any words at all', 400, 'VALIDATION', true, body);
    expect(outcomeOf(SAVE_TEXTS, { failure: refusal })).toMatchObject({ field: 'proxyPass', targets: [1] });
    // Words that start with a field's label name no field.
    const words = new ApiError('Max body size must be a whole number with an optional unit k, m or g', 400);
    expect(outcomeOf(SAVE_TEXTS, { failure: words }).field).toBeUndefined();
  });
});
