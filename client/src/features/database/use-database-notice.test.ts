import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTICE_MS, useDatabaseNotice } from './use-database-notice';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useDatabaseNotice', () => {
  it('hides a notice after 5 seconds, and a repeated one gets its full 5 seconds again', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useDatabaseNotice());
    expect(NOTICE_MS).toBe(5000);
    act(() => result.current.error('Connection failed'));
    act(() => vi.advanceTimersByTime(4000));
    act(() => result.current.error('Connection failed'));
    act(() => vi.advanceTimersByTime(4000));
    expect(result.current.notice).toMatchObject({ tone: 'error', text: 'Connection failed' });
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.notice).toBeNull();
    act(() => result.current.success('MongoDB configuration saved successfully!', 'Copied 3 documents.'));
    expect(result.current.notice).toMatchObject({ tone: 'success', detail: 'Copied 3 documents.' });
  });
});
