/**
 * The header's search box (spec section 2): a rotating hint, and on focus the "Popular searches"
 * panel, an ARIA APG combobox whose box keeps focus while the arrows move through the suggestions.
 * The panel's markup is a chunk of its own (SearchPanel.tsx), fetched when the shopper points at or
 * focuses the box: no first screen shows it.
 */
import {
  type ComponentType,
  type FormEvent,
  lazy,
  type KeyboardEvent as ReactKeyboardEvent,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { SEARCH_SUGGESTIONS } from '../../domain/shop.js';
import type { SearchPanelProps } from './SearchPanel.js';

// Code that cannot load (a first visit gone offline before the worker kept it) leaves the box a
// plain search box rather than failing the header.
const SearchPanel = lazy<ComponentType<SearchPanelProps>>(() =>
  import('./SearchPanel.js').then(
    (m) => ({ default: m.SearchPanel }),
    () => ({ default: () => null }),
  ),
);

const PLACEHOLDERS = ['cakes', 'flowers', 'chocolates', 'plants', 'gifts'];
const PLACEHOLDER_MS = 3000;

export function SearchBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [placeholder, setPlaceholder] = useState(0);
  const [open, setOpen] = useState(false);
  // Set once the shopper points at or focuses the box: the panel's code is fetched from then on.
  const [wanted, setWanted] = useState(false);
  // Whether the panel's code has arrived: until then the box says it is collapsed, so it never points
  // at an option that is not in the page.
  const [ready, setReady] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // The suggestion the arrows point at (-1: none); focus stays in the box (aria-activedescendant).
  const [active, setActive] = useState(-1);
  const listId = useId();
  const inputId = useId();
  const typed = text.trim().toLowerCase();
  const options = SEARCH_SUGGESTIONS.filter((s) => !typed || s.label.toLowerCase().includes(typed));
  // The keys follow the panel as it will show (a key pressed while its code arrives is not lost); the
  // box announces it only once it is in the page.
  const shown = open && options.length > 0;
  const expanded = ready && shown;

  useEffect(() => {
    // Rotate only while the box is empty and unfocused: a changing hint under the caret distracts.
    if (text) return;
    const t = setInterval(() => {
      if (document.activeElement !== input.current) setPlaceholder((i) => (i + 1) % PLACEHOLDERS.length);
    }, PLACEHOLDER_MS);
    return () => clearInterval(t);
  }, [text]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const go = (q: string) => {
    const query = q.trim();
    if (!query) return;
    navigate(`/search?q=${encodeURIComponent(query)}`);
    setText('');
    close();
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const picked = shown ? options[active] : undefined;
    go(picked ? picked.query : text);
  };
  // The combobox pattern of the ARIA APG: arrows move through the suggestions, Enter picks, Escape closes.
  const onKeyDown = (e: ReactKeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = options.length;
      if (!n) return;
      setOpen(true);
      const down = e.key === 'ArrowDown';
      setActive((i) => (!shown || i < 0 ? (down ? 0 : n - 1) : (i + (down ? 1 : n - 1)) % n));
    } else if (e.key === 'Escape') {
      // Handled here, so the page's own Escape (closing a message) waits for the next press.
      e.preventDefault();
      if (shown) close();
      else setText('');
    }
  };

  return (
    <search className="search" onPointerEnter={() => setWanted(true)}>
      <form onSubmit={onSubmit} className="search__form">
        <label htmlFor={inputId} className="visually-hidden">
          Search products
        </label>
        <input
          id={inputId}
          className="search__input"
          type="search"
          role="combobox"
          name="q"
          autoComplete="off"
          enterKeyHint="search"
          value={text}
          ref={input}
          placeholder={`Search for ${PLACEHOLDERS[placeholder]}`}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={ready ? listId : undefined}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            setOpen(true);
            setWanted(true);
            // Build the search index while the shopper types; loaded on demand to keep it out of the first bundle.
            void import('../hooks/useSearch.js').then((m) => m.warmSearch());
          }}
          onBlur={close}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="search__submit">
          <span className="visually-hidden">Search</span>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
            <path d="M15.5 15.5 L21 21" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          </svg>
        </button>
      </form>
      {wanted && (
        <Suspense fallback={null}>
          <SearchPanel
            listId={listId}
            options={options}
            active={active}
            expanded={expanded}
            go={go}
            onReady={() => setReady(true)}
          />
        </Suspense>
      )}
    </search>
  );
}
