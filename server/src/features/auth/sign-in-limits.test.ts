import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../store/sqlite/store';
import { describeSignInLimitsContract } from './sign-in-limits.contract';

let dir = '';
describeSignInLimitsContract(
  'embedded',
  async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sign-in-limits-'));
    return openEmbeddedStore(dir);
  },
  () => rm(dir, { recursive: true, force: true }),
);
