import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

/** Success notices show for 2 to 7 seconds, 3 unless a panel says otherwise. */
const DEFAULT_SECONDS = 3;
const MIN_SECONDS = 2;
const MAX_SECONDS = 7;
/** At most this many notices are on screen; older ones make room. */
const MAX_SHOWN = 3;

export type NoticeTone = 'success' | 'error' | 'progress';

export interface Notice {
  id: number;
  tone: NoticeTone;
  /** The spec's words, when it has some. */
  text: string;
  /** The reason behind it, in plain words, shown under the text. */
  detail?: string;
  /** A program's own words (a database driver's error), one click away. */
  technical?: string;
  /** Success only: seconds before it hides itself. Errors and progress stay. */
  seconds?: number;
}

export interface NoticeOptions {
  detail?: string;
  technical?: string;
  seconds?: number;
}

/** A notice that can be turned into its outcome later: "Restarting…" becomes "Server is back". */
export interface ProgressNotice {
  success(text: string, options?: NoticeOptions): void;
  error(text: string, options?: NoticeOptions): void;
  update(text: string): void;
}

export interface Notices {
  success(text: string, options?: NoticeOptions): void;
  error(text: string, options?: NoticeOptions): void;
  progress(text: string, options?: NoticeOptions): ProgressNotice;
  dismiss(id: number): void;
}

const NoticesContext = createContext<Notices | null>(null);

/** The console's one way to tell the person how something went. */
export function useNotices(): Notices {
  const notices = useContext(NoticesContext);
  if (!notices) throw new Error('useNotices needs a NoticeProvider');
  return notices;
}

let counter = 0;

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => setShown((list) => list.filter((n) => n.id !== id)), []);

  const put = useCallback((notice: Notice) => {
    setShown((list) => {
      // A progress notice turns into its outcome in place.
      if (list.some((n) => n.id === notice.id)) return list.map((n) => (n.id === notice.id ? notice : n));
      // The same words again replace the older notice (its time starts again) rather than stack.
      const others = list.filter((n) => !(n.tone === notice.tone && n.text === notice.text));
      return [...others, notice].slice(-MAX_SHOWN);
    });
  }, []);

  const notices = useMemo<Notices>(() => {
    const make = (tone: NoticeTone, text: string, options: NoticeOptions = {}, id = ++counter): Notice => ({
      id,
      tone,
      text,
      detail: options.detail,
      technical: options.technical,
      seconds: tone === 'success' ? clampSeconds(options.seconds) : undefined,
    });
    return {
      success: (text, options) => put(make('success', text, options)),
      error: (text, options) => put(make('error', text, options)),
      progress(text, options) {
        const id = ++counter;
        put(make('progress', text, options, id));
        return {
          success: (t, o) => put(make('success', t, o, id)),
          error: (t, o) => put(make('error', t, o, id)),
          update: (t) => put(make('progress', t, options, id)),
        };
      },
      dismiss,
    };
  }, [put, dismiss]);

  return (
    <NoticesContext.Provider value={notices}>
      {children}
      <section
        aria-label="Notices"
        className="pointer-events-none fixed top-3 right-3 left-3 z-[60] flex flex-col items-stretch gap-2 sm:top-4 sm:right-4 sm:left-auto sm:w-[26rem]"
      >
        {shown.map((notice) => (
          <NoticeCard key={notice.id} notice={notice} onDismiss={() => dismiss(notice.id)} />
        ))}
      </section>
    </NoticesContext.Provider>
  );
}

const clampSeconds = (seconds = DEFAULT_SECONDS) => Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, seconds));

const TONES: Record<NoticeTone, string> = {
  success: 'border-emerald-500/40 bg-emerald-950/90 text-emerald-50',
  error: 'border-red-500/50 bg-red-950/95 text-red-50',
  progress: 'border-sky-500/40 bg-sky-950/90 text-sky-50',
};
const ICONS: Record<NoticeTone, string> = { success: '✓', error: '!', progress: '…' };

function NoticeCard({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  const [open, setOpen] = useState(false);
  const hide = useRef(onDismiss);
  hide.current = onDismiss;
  // Success hides itself; an error or a step under way stays until dismissed or finished.
  useEffect(() => {
    if (notice.tone !== 'success') return;
    const timer = setTimeout(() => hide.current(), (notice.seconds ?? DEFAULT_SECONDS) * 1000);
    return () => clearTimeout(timer);
  }, [notice]);

  return (
    <div
      data-notice={notice.tone}
      className={`pointer-events-auto flex items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-2xl shadow-black/50 backdrop-blur ${TONES[notice.tone]}`}
    >
      <span aria-hidden className="mt-px font-bold">
        {ICONS[notice.tone]}
      </span>
      <div className="min-w-0 flex-1">
        {/* Only the words are in the live region: screen readers hear them, not the icons and buttons. */}
        <div role={notice.tone === 'error' ? 'alert' : 'status'}>
          <p className="break-words font-medium">{notice.text}</p>
          {notice.detail && <p className="mt-1 break-words opacity-85">{notice.detail}</p>}
        </div>
        {notice.technical && (
          <>
            <button
              type="button"
              aria-expanded={open}
              onClick={() => setOpen((v) => !v)}
              className="mt-1 text-xs underline underline-offset-2 opacity-80 hover:opacity-100"
            >
              {open ? 'Hide details' : 'Details'}
            </button>
            {open && <p className="mt-1 break-words font-mono text-xs opacity-80">{notice.technical}</p>}
          </>
        )}
      </div>
      {notice.tone !== 'progress' && (
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss notice"
          className="-mr-1 rounded px-1 opacity-70 hover:opacity-100"
        >
          ✕
        </button>
      )}
    </div>
  );
}
