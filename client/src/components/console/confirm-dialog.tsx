import { createContext, type ReactNode, useCallback, useContext, useId, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { ModalDialog } from '../ui/modal-dialog';

export interface ConfirmRequest {
  title: string;
  /** What will be destroyed or interrupted, in plain words. */
  message: ReactNode;
  confirmLabel: string;
  /** Red action button for something that cannot be undone. */
  destructive?: boolean;
}

type Confirm = (request: ConfirmRequest) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** The console's own confirmation, instead of the browser's `confirm`. Escape or Cancel answer false. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a ConfirmProvider');
  return confirm;
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  const titleId = useId();

  const confirm = useCallback<Confirm>(
    (next) =>
      new Promise<boolean>((resolve) => {
        resolver.current?.(false);
        resolver.current = resolve;
        setRequest(next);
      }),
    [],
  );

  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setRequest(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <ModalDialog
        open={request !== null}
        onCancel={() => answer(false)}
        titleId={titleId}
        role="alertdialog"
      >
        {request && (
          <div className="space-y-4 p-6 sm:p-7">
            <h2 id={titleId} className="text-lg font-semibold text-white">
              {request.title}
            </h2>
            <div className="space-y-2 text-sm leading-relaxed text-stone-300">{request.message}</div>
            <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
              {/* Cancel has the focus first: Enter on a surprise dialog never destroys anything. */}
              <Button variant="secondary" autoFocus onClick={() => answer(false)}>
                Cancel
              </Button>
              <Button variant={request.destructive ? 'danger' : 'primary'} onClick={() => answer(true)}>
                {request.confirmLabel}
              </Button>
            </div>
          </div>
        )}
      </ModalDialog>
    </ConfirmContext.Provider>
  );
}
