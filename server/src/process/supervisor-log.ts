/** The supervisor's own lines, marked so that people (and tests) tell them from its workers' output. */
export const log = (message: string): void => console.log(`[supervisor] ${message}`);
export const warn = (message: string): void => console.error(`[supervisor] ${message}`);
