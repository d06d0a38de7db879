import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeConcurrentWritesContract } from '../concurrent-writes.contract';
import { describeStoreContract } from '../store.contract';
import { openEmbeddedStore } from './store';

let dir = '';
describeStoreContract(
  'embedded',
  async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'store-contract-'));
    return openEmbeddedStore(dir);
  },
  () => rm(dir, { recursive: true, force: true }),
);

let writesDir = '';
describeConcurrentWritesContract(
  'embedded',
  async () => {
    writesDir = await mkdtemp(path.join(tmpdir(), 'store-writes-'));
    return openEmbeddedStore(writesDir);
  },
  () => rm(writesDir, { recursive: true, force: true }),
);
