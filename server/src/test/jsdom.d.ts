// jsdom ships no types; this covers what the server's tests use: its DOMParser, to read XML as a browser would.
declare module 'jsdom' {
  export class JSDOM {
    window: { DOMParser: typeof DOMParser };
  }
}
