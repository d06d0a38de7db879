import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef } from 'react';
import { useConfirm } from './confirm-dialog';

interface LeaveGuard {
  /** What would be lost by leaving now, or null when nothing is. */
  set(unsaved: string | null): void;
  /** Asks first when something is unsaved; true when leaving is fine. */
  confirmLeave(): Promise<boolean>;
}

const LeaveGuardContext = createContext<LeaveGuard | null>(null);

/** Guards leaving the shown panel (another section, Logout, closing the tab) while it has unsaved changes. */
export function LeaveGuardProvider({ children }: { children: ReactNode }) {
  const confirm = useConfirm();
  const unsaved = useRef<string | null>(null);

  // Closing or reloading the tab: the browser's own question is the only one allowed there.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (unsaved.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  const guard = useMemo<LeaveGuard>(
    () => ({
      set(value) {
        unsaved.current = value;
      },
      async confirmLeave() {
        if (!unsaved.current) return true;
        const leave = await confirm({
          title: 'Leave without saving?',
          message: `You have unsaved changes: ${unsaved.current}. They will be lost.`,
          confirmLabel: 'Leave without saving',
          destructive: true,
        });
        if (leave) unsaved.current = null;
        return leave;
      },
    }),
    [confirm],
  );
  return <LeaveGuardContext.Provider value={guard}>{children}</LeaveGuardContext.Provider>;
}

export function useConfirmLeave(): () => Promise<boolean> {
  const guard = useContext(LeaveGuardContext);
  return useCallback(() => guard?.confirmLeave() ?? Promise.resolve(true), [guard]);
}

/** A panel says what it has not saved yet (null: nothing); cleared when the panel goes away. */
export function useUnsavedChanges(unsaved: string | null): void {
  const guard = useContext(LeaveGuardContext);
  useEffect(() => {
    guard?.set(unsaved);
  }, [guard, unsaved]);
  useEffect(() => () => guard?.set(null), [guard]);
}
