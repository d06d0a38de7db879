import type { NginxConfig } from '@common/nginx-defaults';
import { NGINX_DEFAULTS } from '@common/nginx-defaults';
import { nginxConfigBody } from '@common/schemas/nginx';
import { describe, expect, it } from 'vitest';
import { explain, nginxErrorLine } from './nginx-errors';
import { renderSite, splitProxyPass } from './nginx-template';

const config: NginxConfig = {
  ...NGINX_DEFAULTS,
  proxyPass: 'http://127.0.0.1:5001',
  staticRoot: '/srv/members site/dist/client',
};

describe('renderSite', () => {
  it('proxies with the client address, protocol, host and websocket upgrade headers', () => {
    const text = renderSite({ config });
    expect(text).toContain('server 127.0.0.1:5001;');
    expect(text).toContain('listen 80;');
    expect(text).toContain('server_name localhost;');
    expect(text).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(text).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    expect(text).toContain('proxy_set_header Host $host;');
    expect(text).toContain('proxy_set_header Upgrade $http_upgrade;');
    expect(text).toContain('client_max_body_size 512M;');
    expect(text).toContain('root "/srv/members site/dist/client";');
    expect(text).toContain('gzip on;');
    expect(text).toContain('add_header Cache-Control "public, max-age=31536000, immutable" always;');
    expect(text).not.toContain('ssl_certificate');
  });

  it('turns gzip and caching off, and listens on one address when told', () => {
    const text = renderSite({
      config: { ...config, gzipEnabled: false, cacheEnabled: false },
      listenAddress: '127.0.0.1',
    });
    expect(text).toContain('gzip off;');
    expect(text).not.toContain('immutable');
    expect(text).toContain('listen 127.0.0.1:80;');
  });

  it('with SSL: HTTPS with the certificate, HTTP redirecting, HSTS only for a certificate of one’s own', () => {
    const ssl = { cert: '/etc/ssl/site.pem', key: '/etc/ssl/site.key', hsts: true };
    const text = renderSite({ config: { ...config, sslEnabled: true, sslPort: 8443, port: 8080 }, ssl });
    expect(text).toContain('listen 8443 ssl http2;');
    expect(text).toContain('ssl_certificate "/etc/ssl/site.pem";');
    expect(text).toContain('listen 8080;');
    expect(text).toContain('return 301 https://$members_site_https_host:8443$request_uri;');
    expect(text).toContain('default localhost;');
    expect(text).toContain('ssl_session_tickets off;');
    expect(text).toContain('Strict-Transport-Security');
    const trial = renderSite({ config: { ...config, sslEnabled: true }, ssl: { ...ssl, hsts: false } });
    expect(trial).toContain('return 301 https://$members_site_https_host$request_uri;');
    expect(trial).not.toContain('Strict-Transport-Security');
  });

  it('serves the ACME challenge folder on plain HTTP, ahead of the HTTPS redirect and the dot-file rule', () => {
    const challengeDir = '/data/nginx/acme-challenge';
    const location = 'location ^~ /.well-known/acme-challenge/ {';
    const plain = renderSite({ config, challengeDir });
    expect(plain).toContain(location);
    expect(plain).toContain('alias "/data/nginx/acme-challenge/";');
    const ssl = { cert: '/etc/ssl/site.pem', key: '/etc/ssl/site.key', hsts: true };
    const secure = renderSite({ config: { ...config, sslEnabled: true }, ssl, challengeDir });
    // Only in the port-80 server, and before its redirect of everything else.
    expect(secure.split(location)).toHaveLength(2);
    const redirectServer = secure.slice(secure.lastIndexOf('server {'));
    expect(redirectServer.indexOf(location)).toBeGreaterThan(-1);
    expect(redirectServer.indexOf(location)).toBeLessThan(redirectServer.indexOf('return 301'));
    expect(() => renderSite({ config, challengeDir: '/data/x";\ndeny all;' })).toThrow(/Unsafe/);
  });

  it('reads the upstream and an optional path from the proxy address', () => {
    expect(splitProxyPass('https://app.internal/base/')).toEqual({
      scheme: 'https',
      address: 'app.internal:443',
      path: '/base',
    });
    expect(splitProxyPass('http://[::1]:5001')).toEqual({ scheme: 'http', address: '[::1]:5001', path: '' });
    const text = renderSite({ config: { ...config, proxyPass: 'https://app.internal:8443/base' } });
    expect(text).toContain('rewrite ^(.*)$ /base$1 break;');
    expect(text).toContain('proxy_pass https://members_site_app;');
    expect(text).toContain('proxy_ssl_server_name on;');
  });

  it('with several proxy addresses: one upstream server each, retried when one stops answering', () => {
    const text = renderSite({
      config: { ...config, proxyPass: 'http://10.0.0.1:5001 http://10.0.0.2:5001' },
      panelAddress: '127.0.0.1:5001',
    });
    expect(text).toContain('server 10.0.0.1:5001 max_fails=1 fail_timeout=10s;');
    expect(text).toContain('server 10.0.0.2:5001 max_fails=1 fail_timeout=10s;');
    expect(text).toContain('proxy_next_upstream error timeout http_502 http_503;');
    expect(text).not.toContain('non_idempotent');
    expect(text).toContain('keepalive 32;');
    // The web-server panel's calls go to the instance that wrote this file and drives this nginx.
    expect(text).toMatch(/upstream members_site_panel \{\n {4}server 127\.0\.0\.1:5001;\n\}/);
    expect(text).toMatch(/location \/api\/system\/ \{\n {8}proxy_pass http:\/\/members_site_panel;\n {4}\}/);
  });

  it('renders a single proxy address as it always has', () => {
    const text = renderSite({ config, panelAddress: '127.0.0.1:5001' });
    expect(text).toMatch(
      /upstream members_site_app \{\n {4}server 127\.0\.0\.1:5001;\n {4}keepalive 32;\n\}/,
    );
    expect(text).not.toContain('proxy_next_upstream');
    expect(text).not.toContain('members_site_panel');
  });

  it('refuses an unsafe value even when it did not come through the form', () => {
    for (const unsafe of [
      { serverName: 'a.com; include /etc/passwd' },
      { staticRoot: '/srv/x";\ninclude /etc/passwd;#' },
      { maxBodySize: '1M;' },
      { proxyPass: 'http://a:1/$request_uri' },
      { proxyPass: 'http://a:1 http://b:1;' },
      { proxyPass: 'http://a:1 https://b:1' },
    ]) {
      expect(() => renderSite({ config: { ...config, ...unsafe } }), JSON.stringify(unsafe)).toThrow();
    }
  });
});

describe('the form allow-lists', () => {
  const valid = { ...config, sslEnabled: false };
  it('accept what real sites use', () => {
    for (const change of [
      { serverName: 'example.com www.example.com' },
      { serverName: '*.example.com' },
      { serverName: '_' },
      { proxyPass: 'http://[::1]:5001' },
      { proxyPass: 'https://app.internal/base/path' },
      { maxBodySize: '0' },
      { maxBodySize: '100k' },
      { staticRoot: '/' },
      { proxyPass: 'http://10.0.0.1:5001 http://10.0.0.2:5001 http://[::1]:5001' },
    ]) {
      expect(nginxConfigBody.safeParse({ ...valid, ...change }).success, JSON.stringify(change)).toBe(true);
    }
  });
});

describe('several proxy addresses', () => {
  const refusal = (proxyPass: string) => {
    const result = nginxConfigBody.safeParse({ ...config, proxyPass });
    return result.success ? null : result.error.issues[0]?.message;
  };
  /** The places in the list of the addresses a refusal is about, as the panel receives them. */
  const refusedPlaces = (proxyPass: string) => {
    const result = nginxConfigBody.safeParse({ ...config, proxyPass });
    const issue = result.success ? undefined : result.error.issues[0];
    return issue?.code === 'custom' ? issue.params?.targets : undefined;
  };

  it('name the places of the refused addresses, for the panel to mark', () => {
    expect(refusedPlaces('http://a:1 http://b:1;x http://c:1')).toEqual([1]);
    expect(refusedPlaces('http://app:80 http://b:1 http://APP/')).toEqual([2]);
    expect(refusedPlaces('http://a:1 https://b:1')).toEqual([1]);
    expect(refusedPlaces('http://a:99999')).toEqual([0]);
  });

  it('are kept in order, separated by one space', () => {
    expect(nginxConfigBody.parse({ ...config, proxyPass: ' http://a:1   http://b:2 ' }).proxyPass).toBe(
      'http://a:1 http://b:2',
    );
  });

  it('name the one address that is refused', () => {
    expect(refusal('http://a:1 http://b:1;x http://c:1')).toBe(
      'Proxy pass http://b:1;x must look like http://host:port or https://host:port/path (letters, digits, dots, hyphens and slashes)',
    );
    expect(refusal('http://a:99999')).toBe(
      'Proxy pass must look like http://host:port or https://host:port/path (letters, digits, dots, hyphens and slashes)',
    );
  });

  it('refuse the same instance twice, however it is written', () => {
    expect(refusal('http://app:80 http://b:1 http://APP/')).toBe('Proxy pass lists http://APP/ twice');
    expect(refusal('http://a:1 http://a:1')).toBe('Proxy pass lists http://a:1 twice');
  });

  it('must share one scheme and path, as nginx forwards to all of them the same way', () => {
    expect(refusal('http://a:1/x http://b:1/y')).toBe(
      'Proxy pass http://b:1/y must use the same scheme and path as http://a:1/x',
    );
    expect(refusal('http://a:1 https://b:1')).toBe(
      'Proxy pass https://b:1 must use the same scheme and path as http://a:1',
    );
  });

  it('are at most 16', () => {
    const many = Array.from({ length: 17 }, (_, i) => `http://10.0.0.${i + 1}:5001`).join(' ');
    expect(refusal(many)).toBe('Proxy pass may list at most 16 addresses');
  });
});

describe('ports: integers, falling back to 80 and 443', () => {
  it('are parsed as integers; text that is not a number falls back to 80 and 443', () => {
    const parse = (port: unknown, sslPort: unknown) => nginxConfigBody.parse({ ...config, port, sslPort });
    expect(parse('eighty', 'x')).toMatchObject({ port: 80, sslPort: 443 });
    expect(parse('', '')).toMatchObject({ port: 80, sslPort: 443 });
    expect(parse('8080', 8443)).toMatchObject({ port: 8080, sslPort: 8443 });
  });
});

describe('nginx error lines', () => {
  it('picks nginx’s own error from its output or log, and explains a refused low port', () => {
    expect(
      nginxErrorLine(
        'nginx: [emerg] unknown directive "x" in /a/site.conf:3\nnginx: configuration file /a/nginx.conf test failed',
      ),
    ).toBe('nginx: [emerg] unknown directive "x" in /a/site.conf:3');
    expect(nginxErrorLine('2026/11/22 21:47:43 [emerg] 6474#6474: still could not bind()')).toBe(
      'nginx: [emerg] still could not bind()',
    );
    expect(explain('nginx: [emerg] bind() to 0.0.0.0:80 failed (13: Permission denied)')).toContain(
      'Ports below 1024 need the right to bind them',
    );
    expect(explain('nginx: [emerg] bind() to 0.0.0.0:8080 failed (13: Permission denied)')).not.toContain(
      'below 1024',
    );
  });
});
