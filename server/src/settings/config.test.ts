import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 5001,
      host: '127.0.0.1',
      logLevel: 'info',
      publicUrl: 'http://127.0.0.1:5001',
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.mediaRoots).toEqual([config.dataDir]);
    expect(config.mediaDir).toBe(path.join(config.dataDir, 'media'));
    expect(config.mongodbUri).toBeUndefined();
    expect(config.admin).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad value at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', SMTP_URL: 'http://mail', MONGODB_URI: 'postgres://x' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of ['PORT', 'LOG_LEVEL', 'SMTP_URL', 'MONGODB_URI']) expect(message).toContain(name);
  });

  it('needs ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'owner@example.com' })).toThrow(
      /ADMIN_EMAIL and ADMIN_PASSWORD go together/,
    );
    expect(loadConfig({ ADMIN_EMAIL: 'owner@example.com', ADMIN_PASSWORD: 'long-enough' }).admin).toEqual({
      email: 'owner@example.com',
      password: 'long-enough',
    });
  });

  it('reads the remaining settings', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://members.example.com/',
      SMTP_URL: 'smtp://mail.example.com:587',
      MAIL_FROM: 'hello@example.com',
      MONGODB_URI: 'mongodb://127.0.0.1:27017/members',
      MEDIA_ROOTS: '/srv/media, /mnt/shared',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: 'https://members.example.com',
      smtpUrl: 'smtp://mail.example.com:587',
      mailFrom: 'hello@example.com',
      mongodbUri: 'mongodb://127.0.0.1:27017/members',
      mediaRoots: ['/srv/media', '/mnt/shared'],
      logLevel: 'debug',
    });
  });

  it('takes the media folder from MEDIA_DIR and allows it as a media root', () => {
    expect(loadConfig({ MEDIA_DIR: '/srv/shared/media' })).toMatchObject({
      mediaDir: '/srv/shared/media',
      mediaRoots: [path.resolve('./data'), '/srv/shared/media'],
    });
    expect(loadConfig({ MEDIA_DIR: '/srv/media', MEDIA_ROOTS: '/srv/media,/mnt' }).mediaRoots).toEqual([
      '/srv/media',
      '/mnt',
    ]);
  });
});
