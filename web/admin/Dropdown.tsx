/** A top-bar button with its panel, closed by a click elsewhere or Escape (the bell, the account menu). */
import { type ReactNode, useEffect, useRef } from 'react';

export function Dropdown({
  id,
  label,
  open,
  setOpen,
  children,
}: {
  id: string;
  label: ReactNode;
  open: boolean;
  setOpen(open: boolean): void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', key);
    };
  }, [open, setOpen]);
  return (
    <div className="admin-drop" ref={box}>
      <button
        type="button"
        className="admin-drop__button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      <div id={id} className="admin-drop__panel" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
