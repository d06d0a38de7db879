import { describe, expect, it } from 'vitest';
import { CONFIG_EXIT_CODE } from '../process/protocol';

describe('loadConfig', () => {
  it('stops start-up with a readable message when a setting is wrong', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      env: { ...process.env, PORT: '99999', LOG_LEVEL: 'shouty' },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(result.status).toBe(CONFIG_EXIT_CODE);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('LOG_LEVEL');
  });
});
