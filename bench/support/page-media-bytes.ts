import type { Browser, BrowserContextOptions } from '@playwright/test';

/** Bytes received for the slideshow's files, by kind, as Chromium counted them on the wire. */
export interface MediaBytes {
  /** Resized copies of pictures and posters of videos (`/media/.copies/…webp`). */
  copies: number;
  /** Pictures as uploaded (`/media/image/`). */
  originals: number;
  /** Videos: as uploaded (`/media/video/`) or their copies (`/media/.copies/video/…mp4`). */
  video: number;
  total: number;
}

export interface HomeVisit {
  /** From navigation to the first slide being on screen; null when none showed. */
  firstSlideMs: number | null;
  untilFirstSlide: MediaBytes;
  overall: MediaBytes;
  /** Every media address asked for, in order, with its bytes and when it was asked for (ms from navigation). */
  requests: Array<{ path: string; bytes: number; atMs: number }>;
}

/**
 * Opens `url` in a fresh context (empty cache) of `browser` with `options` (viewport, pixel
 * density, reduced motion) and counts the bytes of every `/media/` response through the DevTools
 * protocol (`Network.dataReceived`, `loadingFinished`): until the slideshow's first slide shows,
 * and over `seconds` from the navigation.
 */
export async function visitHome(
  browser: Browser,
  url: string,
  options: BrowserContextOptions,
  seconds: number,
  /** A network to emulate (DevTools' Network.emulateNetworkConditions), else the loopback as it is. */
  network?: { downloadMbps: number; uploadMbps: number; latencyMs: number },
): Promise<HomeVisit> {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    // Chromium reports a chunk's wire bytes in `encodedDataLength` only some of the time (often
    // all of it at the end); its body bytes always. Media is never compressed on the way, so the
    // body bytes are the count while a response is coming, and the finished total replaces them.
    const requests = new Map<
      string,
      { path: string; bytes: number; body: number; done: boolean; atMs: number }
    >();
    cdp.on('Network.requestWillBeSent', (event) => {
      const path = new URL(event.request.url).pathname;
      if (path.startsWith('/media/'))
        requests.set(event.requestId, {
          path: decodeURIComponent(path),
          bytes: 0,
          body: 0,
          done: false,
          atMs: performance.now() - started,
        });
    });
    cdp.on('Network.dataReceived', (event) => {
      const entry = requests.get(event.requestId);
      if (!entry || entry.done) return;
      entry.body += event.dataLength;
      entry.bytes = entry.body;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const entry = requests.get(event.requestId);
      if (!entry) return;
      entry.done = true;
      entry.bytes = Math.max(entry.body, event.encodedDataLength);
    });
    await cdp.send('Network.enable');
    if (network)
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: network.latencyMs,
        downloadThroughput: (network.downloadMbps * 1_000_000) / 8,
        uploadThroughput: (network.uploadMbps * 1_000_000) / 8,
      });
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });

    // The moment the first slide is on screen, told by the page itself as it happens.
    let firstSlideMs: number | null = null;
    let untilFirstSlide = tally([]);
    let started = 0;
    let shown = () => {};
    const firstShown = new Promise<void>((resolve) => {
      shown = resolve;
    });
    await page.exposeBinding('__firstSlide', () => {
      if (firstSlideMs !== null) return;
      firstSlideMs = performance.now() - started;
      untilFirstSlide = tally(requests.values());
      shown();
    });
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[data-slide-layer][data-active="true"]')) return;
        observer.disconnect();
        (window as unknown as { __firstSlide: () => void }).__firstSlide();
      }).observe(document, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-active'],
      });
    });

    started = performance.now();
    await page.goto(url);
    await Promise.race([firstShown, page.waitForTimeout(seconds * 1000)]);
    const left = seconds * 1000 - (performance.now() - started);
    if (left > 0) await page.waitForTimeout(left);
    const list = [...requests.values()].map(({ path, bytes, atMs }) => ({ path, bytes, atMs }));
    return { firstSlideMs, untilFirstSlide, overall: tally(list), requests: list };
  } finally {
    await context.close();
  }
}

function tally(entries: Iterable<{ path: string; bytes: number }>): MediaBytes {
  const bytes: MediaBytes = { copies: 0, originals: 0, video: 0, total: 0 };
  for (const { path, bytes: n } of entries) {
    if (path.startsWith('/media/.copies/video/') && path.endsWith('.mp4')) bytes.video += n;
    else if (path.startsWith('/media/.copies/')) bytes.copies += n;
    else if (path.startsWith('/media/image/')) bytes.originals += n;
    else if (path.startsWith('/media/video/')) bytes.video += n;
    bytes.total += n;
  }
  return bytes;
}
