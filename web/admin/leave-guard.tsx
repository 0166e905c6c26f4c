import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { adminMessages } from '../../domain/admin-messages.js';
import { useConfirm } from './dialogs.js';

/**
 * The guard against leaving a form with unsaved changes. The app uses
 * BrowserRouter, where react-router's `useBlocker` is not available, so the
 * guard catches what leaves: a click on any in-app link (caught before React
 * Router's own handler, then confirmed in our dialog) and closing or reloading
 * the tab (`beforeunload`, the browser's own question). The browser's Back
 * button is not caught (see README.md).
 */
type Dirty = { current: boolean };
const DirtyContext = createContext<Dirty>({ current: false });

export function LeaveGuardProvider({ children }: { children: ReactNode }) {
  const dirty = useRef(false);
  const navigate = useNavigate();
  const confirm = useConfirm();
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      if (!dirty.current || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey)
        return;
      const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!a || a.target === '_blank' || a.origin !== location.origin) return;
      if (a.pathname === location.pathname && a.search === location.search) return;
      e.preventDefault();
      e.stopPropagation();
      const to = `${a.pathname}${a.search}${a.hash}`;
      void confirm(adminMessages.unsavedChanges, 'Leave').then((leave) => {
        if (!leave) return;
        dirty.current = false;
        navigate(to);
      });
    };
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!dirty.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    document.addEventListener('click', onClick, true);
    globalThis.addEventListener('beforeunload', onUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      globalThis.removeEventListener('beforeunload', onUnload);
    };
  }, [confirm, navigate]);
  return <DirtyContext.Provider value={dirty}>{children}</DirtyContext.Provider>;
}

/** A form says whether it has unsaved changes; cleared when it unmounts. */
export function useLeaveGuardState(isDirty: boolean): void {
  const dirty = useContext(DirtyContext);
  useEffect(() => {
    dirty.current = isDirty;
  }, [dirty, isDirty]);
  useEffect(
    () => () => {
      dirty.current = false;
    },
    [dirty],
  );
}
