/**
 * The header search box's "Popular searches" panel (SearchBox.tsx keeps the state and the keys):
 * a chunk of its own, fetched when the shopper points at or focuses the box.
 */
import { useEffect } from 'react';

export interface SearchPanelProps {
  listId: string;
  options: readonly { label: string; query: string }[];
  active: number;
  expanded: boolean;
  go: (query: string) => void;
  /** Called once mounted: the box may now say it is expanded and point at an option. */
  onReady: () => void;
}

export function SearchPanel({ listId, options, active, expanded, go, onReady }: SearchPanelProps) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the code has arrived.
  useEffect(() => onReady(), []);
  return (
    <div className="search__panel" hidden={!expanded}>
      <p className="search__panel-title" id={`${listId}-title`}>
        Popular searches
      </p>
      {/* The APG's listbox: the box keeps focus and points at an option with aria-activedescendant. */}
      <div id={listId} role="listbox" aria-labelledby={`${listId}-title`} className="search__options">
        {options.map((s, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard picks options through the box's arrows and Enter.
          <div
            key={s.label}
            id={`${listId}-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            className="chip"
            // Keep the box's focus until the click lands, or blur would hide the panel first.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => go(s.query)}
          >
            {s.label}
          </div>
        ))}
      </div>
    </div>
  );
}
