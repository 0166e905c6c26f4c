/**
 * The Content-Security-Policy proven in the browser: every context of a browser
 * from `launchChromium` reports each `securitypolicyviolation` event (pages) and
 * each console error about the policy (pages and the service worker) here. The
 * e2e project's setup file (`e2e-setup.ts`) fails the test during which one was
 * seen, and closing such a browser throws on any left untaken (so `npm run shots`
 * and the benches fail too). A violation is a bug: the policy or the page is wrong.
 */
import type { Browser, BrowserContext, ConsoleMessage } from 'playwright-core';

const seen: string[] = [];

/** The violations seen since the last call (and forgets them). */
export function takeCspViolations(): string[] {
  return seen.splice(0);
}

const ABOUT_CSP = /Content[ -]Security[ -]Policy/i;

function fromConsole(where: string) {
  return (message: ConsoleMessage) => {
    if (message.type() === 'error' && ABOUT_CSP.test(message.text())) {
      seen.push(`${where} console: ${message.text()} (${message.location().url})`);
    }
  };
}

async function guardContext(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    seen.push(`event: ${text}`);
  });
  // Before any script of the page: a violation during its start-up counts too.
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = (window as unknown as { __reportCspViolation?: (text: string) => void })
          .__reportCspViolation;
        void report?.(
          `${e.effectiveDirective} refused ${e.blockedURI || 'inline'} on ${e.documentURI} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`,
        );
      },
      true,
    );
  });
  context.on('console', fromConsole('page'));
  context.on('serviceworker', (worker) => worker.on('console', fromConsole('worker')));
}

/** Makes every context (and `newPage`'s own context) of `browser` report violations. */
export function guardBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await guardContext(context);
    return context;
  };
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    await close(options);
    const left = takeCspViolations();
    if (left.length > 0) throw new Error(`Content-Security-Policy violations:\n${left.join('\n')}`);
  };
  return browser;
}
