import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// A screen's first render waits for its lazy chunk, which Vite transforms on first import: on a busy
// CI machine that alone took over testing-library's 1 s default, failing tests that were right.
configure({ asyncUtilTimeout: 5000 });

// React Router's ScrollRestoration scrolls on every navigation; jsdom has no layout to scroll.
// (Files that run in the node environment, e.g. api-client.test.ts, have no window.)
if (typeof window !== 'undefined') window.scrollTo = () => undefined;
