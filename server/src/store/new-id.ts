import { randomBytes } from 'node:crypto';

/** 24 hex characters, the shape of a MongoDB ObjectId, so ids look the same on both adapters. */
export function newId(): string {
  return randomBytes(12).toString('hex');
}
