// The page-view beacon (docs/figures.md, "Visits"): no cookie, nothing the page waits for. It
// keeps where this visit came from for the sign-up (sessionStorage: this tab only, key 'arrival'
// as in common/constants.ts), then, unless the browser asks not to be tracked, tells the server
// of each page shown. The console and the API are never counted.
(() => {
  try {
    const store = sessionStorage;
    if (!store.getItem('arrival')) {
      const query = new URLSearchParams(location.search);
      const referrer = document.referrer;
      const arrival = {};
      if (referrer && new URL(referrer).host !== location.host) arrival.referrer = referrer;
      for (const key of ['ref', 'utm_source', 'utm_medium', 'utm_campaign'])
        if (query.get(key)) arrival[key] = query.get(key).slice(0, 300);
      store.setItem('arrival', JSON.stringify(arrival));
    }
    if (navigator.doNotTrack === '1' || navigator.globalPrivacyControl || !navigator.sendBeacon) return;
    let last;
    const send = () => {
      const path = location.pathname;
      if (path === last || /^\/(admin|api)(\/|$)/.test(path)) return;
      last = path;
      navigator.sendBeacon('/api/visits', path);
    };
    send();
    const push = history.pushState;
    history.pushState = (...args) => {
      push.apply(history, args);
      send();
    };
    addEventListener('popstate', send);
  } catch {}
})();
