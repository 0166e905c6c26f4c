/**
 * A plain fragment link (the skip links, `<a href="#main">`) makes the browser push a history entry
 * of its own, whose `history.state` is null: React Router's index (`idx`) is not in it. On the next
 * Back or Forward the router cannot tell how far the move went, so its blocker (the admin's
 * unsaved-changes question) restored the wrong entry on "Stay", or did not ask at all. This gives
 * such an entry the index it has (the one it was pushed from, plus one) as it arrives, before the
 * router hears of it: its `popstate` listener captures, and at the window a capturing listener runs
 * before React Router's, whenever it was added. Only a blocker needs the index (the admin's guard,
 * web/admin/leave-guard.tsx, installs this as it loads), so the shopper's first screen carries none of it.
 */
let installed = false;
export function indexFragmentEntries(): void {
  if (installed) return;
  installed = true;
  let from: number | null = null;
  let fromUrl = '';
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.('a[href^="#"]');
      if (!link || event.defaultPrevented) return;
      const idx = (history.state as { idx?: unknown } | null)?.idx;
      from = typeof idx === 'number' ? idx : null;
      fromUrl = location.href;
    },
    true,
  );
  window.addEventListener(
    'popstate',
    () => {
      const pushedFrom = from;
      from = null;
      if (history.state !== null || pushedFrom === null) return;
      const key = Math.random().toString(36).slice(2, 10);
      // A link to the fragment already shown replaces the entry instead of pushing one.
      history.replaceState(
        { usr: null, key, idx: location.href === fromUrl ? pushedFrom : pushedFrom + 1 },
        '',
      );
    },
    true,
  );
}
