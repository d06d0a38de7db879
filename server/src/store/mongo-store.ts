// mongo-counters.test.ts opens the store from here until it moves into mongo/; then this file goes.
export { openMongoStore } from './mongo/store';
