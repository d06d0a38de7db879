import { type ReactNode, useEffect, useRef } from 'react';

export interface ModalDialogProps {
  open: boolean;
  /** Escape, or anything else that dismisses the dialog without its action. */
  onCancel: () => void;
  titleId: string;
  children: ReactNode;
  /** `alertdialog` for a question about something destructive. */
  role?: 'dialog' | 'alertdialog';
}

/**
 * The console's one modal: a native <dialog> opened with showModal, so the page behind is inert
 * (focus stays inside) and Escape cancels. Focus returns to what had it before.
 */
export function ModalDialog({ open, onCancel, titleId, children, role = 'dialog' }: ModalDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnFocus.current = document.activeElement as HTMLElement | null;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
      returnFocus.current?.focus?.();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      role={role}
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-2xl border border-white/10 bg-stone-900/95 p-0 text-stone-100 shadow-2xl shadow-black/60 backdrop:bg-black/70 backdrop:backdrop-blur-sm"
    >
      {open && children}
    </dialog>
  );
}
