import type * as MongoDriver from 'mongodb';

let driver: Promise<typeof MongoDriver> | undefined;

/**
 * The MongoDB driver, loaded the first time a MongoDB is actually used. Most sites run on the
 * embedded store and never need it, and loading it cost every server process about 100 ms of
 * start-up and 28 MB of memory (the driver keeps a 17 MB buffer pool of its own).
 */
export function loadMongoDriver(): Promise<typeof MongoDriver> {
  driver ??= import('mongodb');
  return driver;
}
