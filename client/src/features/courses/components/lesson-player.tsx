import { AUTO_COMPLETE_SHARE, POSITION_SAVE_EVERY_MS } from '@common/courses';
import type { LessonView } from '@common/schemas/course-views';
import { useEffect, useRef } from 'react';
import { savePosition } from '../api';

export interface LessonPlayerProps {
  lesson: LessonView;
  /** Whether positions are kept (a signed-in member, not a preview). */
  keepsPosition: boolean;
  /** The server counted the lesson completed (90 % played). */
  onCompleted: () => void;
  /** The link stopped working (expired, or access changed): the page asks for the lesson again. */
  onLinkFailed: () => void;
}

/**
 * The lesson's video or audio. Playback resumes where the member left it (on any device); the
 * position is saved every ~10 s while playing, on pause, at the end, and when the page goes away
 * (fetch keepalive). At 90 % played the server counts the lesson completed. The player keeps the
 * link it started with: a fresh link replaces it only when that one fails, at the same time.
 */
export function LessonPlayer({ lesson, keepsPosition, onCompleted, onLinkFailed }: LessonPlayerProps) {
  const media = lesson.media!;
  const element = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const src = useRef(media.url);
  const resumeAt = useRef(lesson.position);
  const lastSaved = useRef(lesson.position);
  const lastSaveAt = useRef(0);
  const completed = useRef(lesson.completed);
  const failedAt = useRef(0);
  const callbacks = useRef({ onCompleted, onLinkFailed });
  callbacks.current = { onCompleted, onLinkFailed };

  // A link that failed is replaced by the fresh one the page fetched, resuming where it stopped.
  if (media.url !== src.current && failedAt.current > 0) {
    src.current = media.url;
    failedAt.current = 0;
  }

  useEffect(() => {
    if (!keepsPosition || !element.current) return;
    // Kept here: React has let go of the ref by the time this effect is cleaned up.
    const player = element.current;
    const save = (keepalive = false) => {
      if (!Number.isFinite(player.currentTime)) return;
      const seconds = player.currentTime;
      if (Math.abs(seconds - lastSaved.current) < 0.5) return;
      lastSaved.current = seconds;
      lastSaveAt.current = Date.now();
      void savePosition(lesson.id, seconds, player.duration, { keepalive }).then((result) => {
        if (result?.completed && !completed.current) {
          completed.current = true;
          callbacks.current.onCompleted();
        }
      });
    };
    const onTime = () => {
      const due = Date.now() - lastSaveAt.current >= POSITION_SAVE_EVERY_MS;
      const watched =
        !completed.current &&
        player.duration > 0 &&
        player.currentTime >= player.duration * AUTO_COMPLETE_SHARE;
      if ((due && !player.paused) || watched) save();
    };
    const onPause = () => save();
    const onHidden = () => {
      if (document.visibilityState === 'hidden') save(true);
    };
    const onLeave = () => save(true);
    player.addEventListener('timeupdate', onTime);
    player.addEventListener('pause', onPause);
    player.addEventListener('ended', onPause);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', onLeave);
    return () => {
      player.removeEventListener('timeupdate', onTime);
      player.removeEventListener('pause', onPause);
      player.removeEventListener('ended', onPause);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', onLeave);
      // Leaving the lesson within the app: the last position goes too.
      save(true);
    };
  }, [keepsPosition, lesson.id]);

  const props = {
    ref: element,
    src: src.current,
    controls: true,
    preload: 'metadata' as const,
    'data-testid': 'lesson-player',
    onLoadedMetadata: () => {
      const player = element.current;
      if (player && resumeAt.current > 1 && resumeAt.current < player.duration - 1)
        player.currentTime = resumeAt.current;
    },
    onError: () => {
      const player = element.current;
      // Asked again at most every 30 s, so a file that is gone does not loop.
      if (!player || Date.now() - failedAt.current < 30_000) return;
      resumeAt.current = player.currentTime || resumeAt.current;
      failedAt.current = Date.now();
      callbacks.current.onLinkFailed();
    },
  };
  return media.kind === 'video' ? (
    <video {...props} className="aspect-video w-full rounded-xl bg-black" playsInline />
  ) : (
    <audio {...props} className="w-full" />
  );
}
