// sqlite-counters.ts finds storeFault here until it moves into sqlite/ beside it; then this file goes.
export { storeFault } from './sqlite/faults';
