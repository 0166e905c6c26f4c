/**
 * The guard against leaving a form with unsaved changes: leaving in the app
 * (a link, a search from the top bar, Back or Forward) waits for our dialog
 * (the router's `useBlocker`); closing or reloading the tab gets the browser's
 * own question (`beforeunload`).
 */
import { createContext, type ReactNode, useContext, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';
import { adminMessages } from '../../domain/admin-messages.js';
import { useConfirm } from './dialogs.js';
import { indexFragmentEntries } from './fragment-entries.js';

// The blocker below needs every history entry to carry the router's index, a skip link's too.
indexFragmentEntries();

type Dirty = { current: boolean };
const DirtyContext = createContext<Dirty>({ current: false });

export function LeaveGuardProvider({ children }: { children: ReactNode }) {
  const dirty = useRef(false);
  const confirm = useConfirm();
  // A move within the page (a skip link's #section) leaves nothing unsaved behind: not asked.
  const blocker = useBlocker(
    ({ currentLocation: from, nextLocation: to }) =>
      dirty.current && (from.pathname !== to.pathname || from.search !== to.search),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm(adminMessages.unsavedChanges, 'Leave').then((leave) => {
      if (!leave) return blocker.reset();
      dirty.current = false;
      blocker.proceed();
    });
  }, [blocker, confirm]);
  useEffect(() => {
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!dirty.current) return;
      e.preventDefault();
      e.returnValue = '';
    };
    globalThis.addEventListener('beforeunload', onUnload);
    return () => globalThis.removeEventListener('beforeunload', onUnload);
  }, []);
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
